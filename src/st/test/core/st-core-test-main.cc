/*
 * st-core-test-main.cc: the Boost.Test entry point of the ST engine tests (no ns-3).
 */
#define BOOST_TEST_MODULE st_core
#include <boost/test/unit_test.hpp>
