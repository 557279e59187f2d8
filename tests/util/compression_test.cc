#include "floe/util/compression.h"

#include <gtest/gtest.h>
#include <zstd.h>

#include <functional>
#include <random>
#include <string>
#include <vector>

namespace floe {
namespace {

std::string compressible(size_t n) {
  std::string s;
  s.reserve(n);
  for (size_t i = 0; s.size() < n; ++i) s += fmt::format("row {} value {};", i % 1000, i % 7);
  s.resize(n);
  return s;
}

std::string random_bytes(size_t n, uint64_t seed = 42) {
  std::mt19937_64 rng(seed);
  std::string s(n, '\0');
  for (auto& c : s) c = static_cast<char>(rng() & 0xff);
  return s;
}

struct Codec {
  std::string name;
  std::function<Result<std::string>(std::string_view)> compress;
  // Gets the original size for codecs that need it (lz4) or take it as a hint (deflate).
  std::function<Result<std::string>(std::string_view, size_t)> decompress;
};

std::vector<Codec> all_codecs() {
  return {
      {"gzip", [](std::string_view d) { return gzip_compress(d); },
       [](std::string_view d, size_t) { return gzip_decompress(d); }},
      {"zstd", [](std::string_view d) { return zstd_compress(d); },
       [](std::string_view d, size_t) { return zstd_decompress(d); }},
      {"deflate", [](std::string_view d) { return deflate_raw_compress(d); },
       [](std::string_view d, size_t) { return deflate_raw_decompress(d); }},
      {"deflate_hint", [](std::string_view d) { return deflate_raw_compress(d); },
       [](std::string_view d, size_t n) { return deflate_raw_decompress(d, n); }},
      {"deflate_small_hint", [](std::string_view d) { return deflate_raw_compress(d); },
       [](std::string_view d, size_t) { return deflate_raw_decompress(d, 1); }},
      {"snappy", [](std::string_view d) { return snappy_compress(d); },
       [](std::string_view d, size_t) { return snappy_decompress(d); }},
      {"lz4", [](std::string_view d) { return lz4_raw_compress(d); },
       [](std::string_view d, size_t n) { return lz4_raw_decompress(d, n); }},
  };
}

class CodecTest : public ::testing::TestWithParam<Codec> {
 protected:
  void round_trip(const std::string& input) {
    const Codec& codec = GetParam();
    auto compressed = codec.compress(input);
    ASSERT_TRUE(compressed.ok()) << compressed.status().to_string();
    auto restored = codec.decompress(*compressed, input.size());
    ASSERT_TRUE(restored.ok()) << restored.status().to_string();
    ASSERT_EQ(restored->size(), input.size());
    EXPECT_TRUE(*restored == input);
  }

  void expect_invalid(std::string_view data, size_t size) {
    const Codec& codec = GetParam();
    auto r = codec.decompress(data, size);
    ASSERT_FALSE(r.ok()) << codec.name << " accepted corrupt input of " << data.size() << " bytes";
    EXPECT_EQ(r.status().kind(), ErrorKind::kInvalidData) << r.status().to_string();
    std::string codec_word = codec.name.substr(0, codec.name.find('_'));
    EXPECT_NE(r.status().message().find(codec_word), std::string::npos) << r.status().message();
  }
};

TEST_P(CodecTest, RoundTripEmpty) { round_trip(""); }
TEST_P(CodecTest, RoundTripSmall) { round_trip("hello, iceberg"); }
TEST_P(CodecTest, RoundTripOneByte) { round_trip("x"); }
TEST_P(CodecTest, RoundTripCompressibleMegabyte) { round_trip(compressible(1 << 20)); }
TEST_P(CodecTest, RoundTripRandomMegabyte) { round_trip(random_bytes(1 << 20)); }

TEST_P(CodecTest, CompressibleDataShrinks) {
  std::string input = compressible(1 << 20);
  auto compressed = GetParam().compress(input);
  ASSERT_TRUE(compressed.ok());
  EXPECT_LT(compressed->size(), input.size() / 2);
}

TEST_P(CodecTest, TruncatedInputIsInvalidData) {
  std::string input = compressible(100000) + random_bytes(1000);
  auto compressed = GetParam().compress(input);
  ASSERT_TRUE(compressed.ok());
  std::string_view c = *compressed;
  expect_invalid(c.substr(0, c.size() / 2), input.size());
  expect_invalid(c.substr(0, 1), input.size());
  expect_invalid(c.substr(0, c.size() - 1), input.size());
}

TEST_P(CodecTest, GarbageIsInvalidData) {
  expect_invalid("this is certainly not compressed data, just some text", 1000);
  expect_invalid(random_bytes(4096, 7), 8192);
}

TEST_P(CodecTest, EmptyInputForNonEmptyOutputIsInvalidData) { expect_invalid("", 10); }

INSTANTIATE_TEST_SUITE_P(AllCodecs, CodecTest, ::testing::ValuesIn(all_codecs()),
                         [](const auto& info) { return info.param.name; });

// ---- gzip --------------------------------------------------------------------------------------

TEST(Gzip, MagicDetected) {
  auto c = gzip_compress("abc");
  ASSERT_TRUE(c.ok());
  EXPECT_TRUE(is_gzip(*c));
  EXPECT_FALSE(is_gzip("{\"format-version\": 2}"));
  EXPECT_FALSE(is_gzip("\x1f"));
}

TEST(Gzip, MultiMember) {
  auto a = gzip_compress("hello ");
  auto b = gzip_compress("");
  auto c = gzip_compress("world", 9);
  ASSERT_TRUE(a.ok() && b.ok() && c.ok());
  auto r = gzip_decompress(*a + *b + *c);
  ASSERT_TRUE(r.ok()) << r.status().to_string();
  EXPECT_EQ(*r, "hello world");
}

TEST(Gzip, MultiMemberLarge) {
  std::string x = compressible(300000), y = random_bytes(200000);
  auto a = gzip_compress(x);
  auto b = gzip_compress(y, 1);
  ASSERT_TRUE(a.ok() && b.ok());
  auto r = gzip_decompress(*a + *b);
  ASSERT_TRUE(r.ok()) << r.status().to_string();
  EXPECT_TRUE(*r == x + y);
}

TEST(Gzip, TrailingZeroPaddingTolerated) {
  auto a = gzip_compress("padded");
  ASSERT_TRUE(a.ok());
  auto r = gzip_decompress(*a + std::string(16, '\0'));
  ASSERT_TRUE(r.ok()) << r.status().to_string();
  EXPECT_EQ(*r, "padded");
}

TEST(Gzip, TrailingGarbageRejected) {
  auto a = gzip_compress("data");
  ASSERT_TRUE(a.ok());
  auto r = gzip_decompress(*a + "junk");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().kind(), ErrorKind::kInvalidData);
}

TEST(Gzip, TruncatedSecondMemberRejected) {
  auto a = gzip_compress("first");
  auto b = gzip_compress(compressible(5000));
  ASSERT_TRUE(a.ok() && b.ok());
  auto r = gzip_decompress(*a + b->substr(0, b->size() - 3));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().kind(), ErrorKind::kInvalidData);
}

TEST(Gzip, BadChecksumRejected) {
  auto a = gzip_compress("checksummed payload");
  ASSERT_TRUE(a.ok());
  std::string bad = *a;
  bad[bad.size() - 6] ^= 0x01;  // inside the CRC-32 trailer
  auto r = gzip_decompress(bad);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().kind(), ErrorKind::kInvalidData);
}

TEST(Gzip, LevelsAndBadLevel) {
  std::string input = compressible(50000);
  for (int level : {-1, 0, 1, 9}) {
    auto c = gzip_compress(input, level);
    ASSERT_TRUE(c.ok()) << level;
    auto r = gzip_decompress(*c);
    ASSERT_TRUE(r.ok()) << level;
    EXPECT_EQ(*r, input);
  }
  auto bad = gzip_compress(input, 42);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().kind(), ErrorKind::kInvalidArgument);
}

// ---- zstd --------------------------------------------------------------------------------------

// A frame without a content size in its header, as streaming writers produce.
std::string zstd_stream_frame(std::string_view data) {
  ZSTD_CCtx* cctx = ZSTD_createCCtx();
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_contentSizeFlag, 0);
  std::string out(ZSTD_compressBound(data.size()) + 64, '\0');
  ZSTD_inBuffer in{data.data(), data.size(), 0};
  ZSTD_outBuffer ob{out.data(), out.size(), 0};
  size_t rc;
  do {
    rc = ZSTD_compressStream2(cctx, &ob, &in, ZSTD_e_end);
  } while (rc != 0 && !ZSTD_isError(rc));
  ZSTD_freeCCtx(cctx);
  EXPECT_FALSE(ZSTD_isError(rc));
  out.resize(ob.pos);
  return out;
}

TEST(Zstd, MagicDetected) {
  auto c = zstd_compress("abc");
  ASSERT_TRUE(c.ok());
  EXPECT_TRUE(is_zstd(*c));
  EXPECT_FALSE(is_zstd("\x28\xb5\x2f"));
  EXPECT_FALSE(is_zstd("plain text"));
}

TEST(Zstd, FrameWithoutContentSize) {
  for (const std::string& input :
       {std::string("hello"), compressible(1 << 20), random_bytes(300000)}) {
    std::string frame = zstd_stream_frame(input);
    ASSERT_EQ(ZSTD_getFrameContentSize(frame.data(), frame.size()), ZSTD_CONTENTSIZE_UNKNOWN);
    auto r = zstd_decompress(frame);
    ASSERT_TRUE(r.ok()) << r.status().to_string();
    EXPECT_TRUE(*r == input);
  }
}

TEST(Zstd, FrameWithoutContentSizeTruncated) {
  std::string frame = zstd_stream_frame(compressible(100000));
  auto r = zstd_decompress(std::string_view(frame).substr(0, frame.size() - 4));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().kind(), ErrorKind::kInvalidData);
}

TEST(Zstd, MultipleFramesWithSizes) {
  auto a = zstd_compress("first,");
  auto b = zstd_compress(compressible(70000));
  ASSERT_TRUE(a.ok() && b.ok());
  auto r = zstd_decompress(*a + *b);
  ASSERT_TRUE(r.ok()) << r.status().to_string();
  EXPECT_EQ(*r, "first," + compressible(70000));
}

TEST(Zstd, MixedFramesWithAndWithoutSizes) {
  auto a = zstd_compress("sized,");
  ASSERT_TRUE(a.ok());
  std::string b = zstd_stream_frame("unsized");
  auto r = zstd_decompress(*a + b + *a);
  ASSERT_TRUE(r.ok()) << r.status().to_string();
  EXPECT_EQ(*r, "sized,unsizedsized,");
}

TEST(Zstd, SkippableFrameIgnored) {
  auto a = zstd_compress("payload");
  ASSERT_TRUE(a.ok());
  // Skippable frame: magic 0x184D2A50 (little endian), 4-byte length, user data.
  std::string skippable("\x50\x2a\x4d\x18\x03\x00\x00\x00xyz", 11);
  auto r = zstd_decompress(skippable + *a);
  ASSERT_TRUE(r.ok()) << r.status().to_string();
  EXPECT_EQ(*r, "payload");
}

TEST(Zstd, HugeDeclaredSizeWithNoDataRejected) {
  // Header claiming 1 TiB of content, followed by nothing.
  std::string frame("\x28\xb5\x2f\xfd\xe0", 5);
  uint64_t size = uint64_t{1} << 40;
  for (int i = 0; i < 8; ++i) frame.push_back(static_cast<char>((size >> (8 * i)) & 0xff));
  auto r = zstd_decompress(frame);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().kind(), ErrorKind::kInvalidData);
}

TEST(Zstd, TrailingGarbageRejected) {
  auto a = zstd_compress("data");
  ASSERT_TRUE(a.ok());
  auto r = zstd_decompress(*a + "junk");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().kind(), ErrorKind::kInvalidData);
}

TEST(Zstd, BadLevelRejected) {
  auto r = zstd_compress("x", 1000);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().kind(), ErrorKind::kInvalidArgument);
}

// ---- deflate, snappy, lz4 -------------------------------------------------------------------

TEST(Deflate, OversizedHintStillExact) {
  std::string input = compressible(10000);
  auto c = deflate_raw_compress(input);
  ASSERT_TRUE(c.ok());
  auto r = deflate_raw_decompress(*c, 1 << 20);
  ASSERT_TRUE(r.ok()) << r.status().to_string();
  EXPECT_EQ(*r, input);
}

TEST(Deflate, AllLevels) {
  std::string input = compressible(20000);
  for (int level = 0; level <= 12; ++level) {
    auto c = deflate_raw_compress(input, level);
    ASSERT_TRUE(c.ok()) << level;
    auto r = deflate_raw_decompress(*c);
    ASSERT_TRUE(r.ok()) << level;
    EXPECT_EQ(*r, input);
  }
  EXPECT_EQ(deflate_raw_compress(input, 13).status().kind(), ErrorKind::kInvalidArgument);
}

TEST(Deflate, HighlyCompressibleGrowsPastInitialGuess) {
  std::string input(8 << 20, 'a');  // compresses ~1000:1, far above the initial buffer
  auto c = deflate_raw_compress(input);
  ASSERT_TRUE(c.ok());
  auto r = deflate_raw_decompress(*c);
  ASSERT_TRUE(r.ok()) << r.status().to_string();
  EXPECT_TRUE(*r == input);
}

TEST(Snappy, HugeDeclaredLengthRejected) {
  auto r = snappy_decompress(std::string("\xff\xff\xff\xff\x0f", 5));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().kind(), ErrorKind::kInvalidData);
}

TEST(Snappy, LengthLargerThanDataRejected) {
  // Declares 100 bytes, provides a 3-byte literal.
  auto r =
      snappy_decompress(std::string("\x64\x08"
                                    "abc",
                                    5));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().kind(), ErrorKind::kInvalidData);
}

TEST(Lz4, WrongOutputSizeRejected) {
  std::string input = compressible(10000);
  auto c = lz4_raw_compress(input);
  ASSERT_TRUE(c.ok());
  for (size_t size : {input.size() - 1, input.size() + 1, size_t{0}}) {
    auto r = lz4_raw_decompress(*c, size);
    ASSERT_FALSE(r.ok()) << size;
    EXPECT_EQ(r.status().kind(), ErrorKind::kInvalidData);
  }
}

TEST(Lz4, ImpossibleSizeRejectedWithoutAllocating) {
  auto r = lz4_raw_decompress("x", size_t{1} << 40);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().kind(), ErrorKind::kInvalidData);
}

TEST(Lz4, EmptyToEmpty) {
  auto r = lz4_raw_decompress("", 0);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, "");
}

// ---- crc32 -------------------------------------------------------------------------------------

TEST(Crc32, KnownValues) {
  EXPECT_EQ(floe::crc32("123456789"), 0xCBF43926u);
  EXPECT_EQ(floe::crc32(""), 0u);
  EXPECT_EQ(floe::crc32("The quick brown fox jumps over the lazy dog"), 0x414FA339u);
}

TEST(Crc32, Incremental) {
  EXPECT_EQ(floe::crc32("6789", floe::crc32("12345")), 0xCBF43926u);
  std::string big = random_bytes(3 << 20);
  uint32_t whole = floe::crc32(big);
  uint32_t parts = floe::crc32(std::string_view(big).substr(1 << 20),
                               floe::crc32(std::string_view(big).substr(0, 1 << 20)));
  EXPECT_EQ(whole, parts);
}

}  // namespace
}  // namespace floe
