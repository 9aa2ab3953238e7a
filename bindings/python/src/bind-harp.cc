#include "ns3-py.h"
namespace ns3py {
void BindHarp(py::module_&) {}
}
