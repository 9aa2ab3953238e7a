#include "ns3-py.h"
namespace ns3py {
void BindSt(py::module_&) {}
}
