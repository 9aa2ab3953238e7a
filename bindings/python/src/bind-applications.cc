#include "ns3-py.h"
namespace ns3py {
void BindApplications(py::module_&) {}
}
