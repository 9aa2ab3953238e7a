// harp-cache-test.cc: unit tests of the mapping table: static against dynamic entries, the
// expiry index, and the counts.
#include "harp-cache.h"
#include "harp-test-util.h"

#include <boost/test/unit_test.hpp>

using namespace harp;
using namespace harp::test;

BOOST_AUTO_TEST_SUITE(cache)

BOOST_AUTO_TEST_CASE(dynamic_entries_add_refresh_change)
{
    Cache cache;
    BOOST_TEST((cache.Update(Ip("10.0.0.1"), MakeUla(1), 100) == Cache::UpdateResult::Added));
    BOOST_TEST((cache.Update(Ip("10.0.0.1"), MakeUla(1), 200) == Cache::UpdateResult::Refreshed));
    BOOST_TEST(cache.Find(Ip("10.0.0.1"))->expiresAt == 200U);
    BOOST_TEST((cache.Update(Ip("10.0.0.1"), MakeUla(2), 300) == Cache::UpdateResult::Changed));
    BOOST_TEST(cache.Find(Ip("10.0.0.1"))->ula == MakeUla(2));
    BOOST_TEST(cache.GetSize() == 1U);
    BOOST_TEST(cache.NextExpiry().value() == 300U);
}

BOOST_AUTO_TEST_CASE(static_entries_win_over_dynamic_ones)
{
    Cache cache;
    cache.Update(Ip("10.0.0.1"), MakeUla(1), 100);
    cache.AddStatic(Ip("10.0.0.1"), MakeUla(9));
    const CacheEntry* entry = cache.Find(Ip("10.0.0.1"));
    BOOST_REQUIRE(entry);
    BOOST_TEST(entry->isStatic);
    BOOST_TEST(entry->ula == MakeUla(9));
    BOOST_TEST(!cache.NextExpiry()); // static entries never expire
    BOOST_TEST(
        (cache.Update(Ip("10.0.0.1"), MakeUla(1), 500) == Cache::UpdateResult::StaticConflict));
    BOOST_TEST(cache.Find(Ip("10.0.0.1"))->ula == MakeUla(9));
    BOOST_TEST(cache.GetStaticCount() == 1U);
    BOOST_TEST(cache.Expired(kNever - 1).empty());
}

BOOST_AUTO_TEST_CASE(remove_static_leaves_dynamic_entries)
{
    Cache cache;
    cache.Update(Ip("10.0.0.2"), MakeUla(2), 100);
    cache.AddStatic(Ip("10.0.0.3"), MakeUla(3));
    BOOST_TEST(!cache.RemoveStatic(Ip("10.0.0.2")));
    BOOST_TEST(!cache.RemoveStatic(Ip("10.0.0.4")));
    BOOST_TEST(cache.RemoveStatic(Ip("10.0.0.3")));
    BOOST_TEST(cache.GetStaticCount() == 0U);
    BOOST_TEST(cache.GetSize() == 1U);
    BOOST_TEST(cache.Erase(Ip("10.0.0.2")));
    BOOST_TEST(!cache.Erase(Ip("10.0.0.2")));
    BOOST_TEST(!cache.NextExpiry());
}

BOOST_AUTO_TEST_CASE(expiry_index_orders_and_parks)
{
    Cache cache;
    cache.Update(Ip("10.0.0.5"), MakeUla(5), 500);
    cache.Update(Ip("10.0.0.3"), MakeUla(3), 300);
    cache.Update(Ip("10.0.0.4"), MakeUla(4), 300);
    BOOST_TEST(cache.NextExpiry().value() == 300U);
    BOOST_TEST(cache.Expired(299).empty());
    const std::vector<Ipv4> due = cache.Expired(300);
    BOOST_TEST(due.size() == 2U);
    BOOST_TEST((due[0] == Ip("10.0.0.3") && due[1] == Ip("10.0.0.4")));
    cache.SetExpiry(Ip("10.0.0.3"), kNever);
    cache.SetExpiry(Ip("10.0.0.4"), kNever);
    BOOST_TEST(cache.NextExpiry().value() == 500U);
    BOOST_TEST(cache.Expired(1000).size() == 1U);
    // A refresh moves the entry in the index.
    cache.Update(Ip("10.0.0.3"), MakeUla(3), 200);
    BOOST_TEST(cache.NextExpiry().value() == 200U);
}

BOOST_AUTO_TEST_CASE(used_flag_is_reset_by_validation)
{
    Cache cache;
    cache.Update(Ip("10.0.0.1"), MakeUla(1), 100);
    BOOST_TEST(!cache.Find(Ip("10.0.0.1"))->used);
    cache.MarkUsed(Ip("10.0.0.1"));
    BOOST_TEST(cache.Find(Ip("10.0.0.1"))->used);
    cache.Update(Ip("10.0.0.1"), MakeUla(1), 200);
    BOOST_TEST(!cache.Find(Ip("10.0.0.1"))->used);
    cache.MarkUsed(Ip("10.9.9.9")); // absent: no effect, no crash
    BOOST_TEST(cache.GetSize() == 1U);
}

BOOST_AUTO_TEST_SUITE_END()
