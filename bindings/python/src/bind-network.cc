#include "ns3-py.h"
namespace ns3py {
void BindNetwork(py::module_&) {}
}
