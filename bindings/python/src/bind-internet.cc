#include "ns3-py.h"
namespace ns3py {
void BindInternet(py::module_&) {}
}
