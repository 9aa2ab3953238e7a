#include "ns3-py.h"
namespace ns3py {
void BindGsnModel(py::module_&) {}
}
