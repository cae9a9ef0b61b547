// Text forms of the hardware enums and the default backend per device.
#include <gtest/gtest.h>

#include "engine/hardware/hardware.hpp"

namespace gputco {
namespace {

TEST(Hardware, enumsRoundTripThroughText) {
  for (Vendor v : {Vendor::nvidia, Vendor::amd, Vendor::intel, Vendor::apple}) {
    EXPECT_EQ(parse_vendor(to_string(v)), v) << to_string(v);
  }
  for (DeviceKind k : {DeviceKind::consumer, DeviceKind::workstation, DeviceKind::datacenter,
                       DeviceKind::unified}) {
    EXPECT_EQ(parse_device_kind(to_string(k)), k) << to_string(k);
  }
  for (Backend b : {Backend::cuda, Backend::metal, Backend::rocm, Backend::vulkan, Backend::sycl}) {
    EXPECT_EQ(parse_backend(to_string(b)), b) << to_string(b);
  }
  for (KvCacheType t : {KvCacheType::f16, KvCacheType::q8_0, KvCacheType::q4_0, KvCacheType::fp8}) {
    EXPECT_EQ(parse_kv_cache_type(to_string(t)), t) << to_string(t);
  }
  for (SplitMode s : {SplitMode::layer, SplitMode::tensor}) {
    EXPECT_EQ(parse_split_mode(to_string(s)), s) << to_string(s);
  }
}

TEST(Hardware, textFormsAreTheCatalogSpelling) {
  EXPECT_EQ(to_string(Vendor::nvidia), "nvidia");
  EXPECT_EQ(to_string(DeviceKind::datacenter), "datacenter");
  EXPECT_EQ(to_string(Backend::metal), "metal");
  EXPECT_EQ(to_string(KvCacheType::q8_0), "q8_0");
  EXPECT_EQ(to_string(SplitMode::tensor), "tensor");
}

TEST(Hardware, unknownTextIsRejected) {
  EXPECT_FALSE(parse_vendor("NVIDIA").has_value());  // case matters: catalog ids are lower case
  EXPECT_FALSE(parse_device_kind("").has_value());
  EXPECT_FALSE(parse_backend("opencl").has_value());
  EXPECT_FALSE(parse_kv_cache_type("q6_k").has_value());  // not a cache type of llama.cpp
  EXPECT_TRUE(parse_kv_cache_type("q5_1").has_value());
  EXPECT_FALSE(parse_split_mode("row").has_value());
}

TEST(Hardware, defaultBackendFollowsVendorAndKind) {
  Device d;
  d.vendor = Vendor::nvidia;
  EXPECT_EQ(default_backend(d), Backend::cuda);
  d.vendor = Vendor::apple;
  d.kind = DeviceKind::unified;
  EXPECT_EQ(default_backend(d), Backend::metal);
  d.vendor = Vendor::amd;
  d.kind = DeviceKind::consumer;
  EXPECT_EQ(default_backend(d), Backend::rocm);
  d.kind = DeviceKind::unified;  // Strix Halo
  EXPECT_EQ(default_backend(d), Backend::vulkan);
  d.vendor = Vendor::intel;
  d.kind = DeviceKind::consumer;
  EXPECT_EQ(default_backend(d), Backend::sycl);
  d.vendor = Vendor::nvidia;
  d.kind = DeviceKind::unified;  // DGX Spark runs CUDA
  EXPECT_EQ(default_backend(d), Backend::cuda);
}

}  // namespace
}  // namespace gputco
