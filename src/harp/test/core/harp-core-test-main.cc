// harp-core-test-main.cc: the Boost.Test module of the HARP engine unit tests (harp-core-test).
// The test cases live in the other files of this folder; this one only names the module.
#define BOOST_TEST_MODULE harp_core
#include <boost/test/unit_test.hpp>
