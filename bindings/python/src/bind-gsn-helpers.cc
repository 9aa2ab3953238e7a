#include "ns3-py.h"
namespace ns3py {
void BindGsnHelpers(py::module_&) {}
}
