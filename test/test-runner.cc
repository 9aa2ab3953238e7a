// The ns-3 test runner for the standalone build: every test suite of the linked
// test libraries registers itself through a static object; TestRunner runs them.
#include "ns3/test.h"

int
main(int argc, char** argv)
{
    return ns3::TestRunner::Run(argc, argv);
}
