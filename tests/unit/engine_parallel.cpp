// parallel_for (engine/base/parallel.hpp): every index once, results by index, exceptions carried
// back to the caller after every thread is joined.
#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/base/parallel.hpp"

namespace gputco {
namespace {

TEST(ParallelFor, runsEveryIndexOnceOnAnyThreadCount) {
  for (const int threads : {1, 2, 3, 16}) {
    std::vector<int> runs(1000, 0);
    std::vector<int> thread_of(1000, -1);
    parallel_for(runs.size(), threads, [&](std::size_t i, int thread) {
      ++runs[i];
      thread_of[i] = thread;
    });
    for (std::size_t i = 0; i < runs.size(); ++i) {
      ASSERT_EQ(runs[i], 1) << "index " << i << ", " << threads << " threads";
      ASSERT_GE(thread_of[i], 0);
      ASSERT_LT(thread_of[i], threads);
    }
  }
}

TEST(ParallelFor, oneThreadRunsInOrderOnTheCaller) {
  std::vector<std::size_t> order;
  parallel_for(5, 1, [&](std::size_t i, int thread) {
    EXPECT_EQ(thread, 0);
    order.push_back(i);
  });
  EXPECT_EQ(order, (std::vector<std::size_t>{0, 1, 2, 3, 4}));
  parallel_for(0, 2, [&](std::size_t, int) { ADD_FAILURE() << "no index to run"; });
}

TEST(ParallelFor, rethrowsTheLowestIndexThatThrew) {
  for (const int threads : {1, 2, 4}) {
    std::atomic<int> ran{0};
    try {
      parallel_for(200, threads, [&](std::size_t i, int) {
        ++ran;
        if (i == 17 || i == 150) throw std::runtime_error("index " + std::to_string(i));
      });
      ADD_FAILURE() << "no exception with " << threads << " threads";
    } catch (const std::runtime_error& e) {
      // Every index below 17 was handed out before 17 and runs; 150 may or may not have.
      EXPECT_EQ(std::string(e.what()), "index 17") << threads << " threads";
    }
    EXPECT_GE(ran.load(), 18);
  }
}

TEST(ParallelFor, defaultThreadsAreOneOrTwo) {
  const int threads = default_thread_count();
  EXPECT_GE(threads, 1);
  EXPECT_LE(threads, 2);
  EXPECT_EQ(default_thread_count(1), 1);
}

}  // namespace
}  // namespace gputco
