// floe's Snappy block decoder against libsnappy's compressor and decoder: every element kind
// (short and long literals, copies with 1-, 2- and 4-byte offsets, overlapping patterns) and
// corrupt blocks, which must fail without reading or writing out of bounds.
#include <gtest/gtest.h>
#include <snappy-c.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "format/parquet/snappy_decoder_internal.h"

namespace floe::parquet::internal {
namespace {

std::string compress(const std::string& in) {
  std::string out(snappy_max_compressed_length(in.size()), '\0');
  size_t len = out.size();
  EXPECT_EQ(snappy_compress(in.data(), in.size(), out.data(), &len), SNAPPY_OK);
  out.resize(len);
  return out;
}

const uint8_t* bytes(const std::string& s) { return reinterpret_cast<const uint8_t*>(s.data()); }

void expect_round_trip(const std::string& in) {
  std::string c = compress(in);
  std::vector<uint8_t> out(in.size());
  ASSERT_TRUE(snappy_decompress(bytes(c), c.size(), out.data(), out.size())) << in.size();
  ASSERT_EQ(std::string(out.begin(), out.end()), in);
  uint64_t declared = 0;
  ASSERT_TRUE(snappy_declared_length(bytes(c), c.size(), &declared));
  EXPECT_EQ(declared, in.size());
}

TEST(SnappyDecoder, DecodesWhatLibsnappyWrites) {
  std::mt19937_64 rng(7);
  expect_round_trip("");
  expect_round_trip("a");
  expect_round_trip(std::string(100000, '\0'));  // offset-1 pattern copies
  std::string random(300000, '\0');
  for (auto& c : random) c = static_cast<char>(rng());
  expect_round_trip(random);  // long literals (2-, 3-byte lengths)
  for (size_t size : {1u, 15u, 16u, 17u, 61u, 255u, 4096u, 70000u, 1u << 20}) {
    std::string ints;  // sequential int64s: short literals and short copies, as in Parquet
    for (size_t i = 0; ints.size() < size; ++i) {
      uint64_t v = 1700000000000000ull + i * 1000 + rng() % 1000;
      ints.append(reinterpret_cast<const char*>(&v), 8);
    }
    ints.resize(size);
    expect_round_trip(ints);
    std::string text;  // repeated words at every distance and period
    while (text.size() < size) text += "user-" + std::to_string(rng() % (1 + size / 64)) + ",";
    text.resize(size);
    expect_round_trip(text);
  }
}

TEST(SnappyDecoder, CopiesWithFourByteOffsetsAndOverlaps) {
  // Hand-made: varint 30, literal "abc", copy4 (len 9, offset 3), copy2 (len 18, offset 12).
  std::string block = {30, 0x08, 'a', 'b', 'c'};
  block += std::string{static_cast<char>((8 << 2) | 3), 3, 0, 0, 0};
  block += std::string{static_cast<char>((17 << 2) | 2), 12, 0};
  std::vector<uint8_t> out(30);
  ASSERT_TRUE(snappy_decompress(bytes(block), block.size(), out.data(), out.size()));
  EXPECT_EQ(std::string(out.begin(), out.end()),
            "abcabcabcabc" + std::string("abcabcabcabcabcabc"));
}

TEST(SnappyDecoder, CorruptBlocksFail) {
  std::string page(5000, 'x');
  page.append("tail of the page");
  std::string good = compress(page);
  std::vector<uint8_t> out(5016 + 64);
  ASSERT_TRUE(snappy_decompress(bytes(good), good.size(), out.data(), 5016));
  // Wrong declared size, truncated input, trailing garbage.
  EXPECT_FALSE(snappy_decompress(bytes(good), good.size(), out.data(), 5015));
  for (size_t cut = 0; cut < good.size(); ++cut) {
    EXPECT_FALSE(snappy_decompress(bytes(good), cut, out.data(), 5016)) << cut;
  }
  std::string longer = good + "\x04z";
  EXPECT_FALSE(snappy_decompress(bytes(longer), longer.size(), out.data(), 5016));
  // A copy reaching before the start of the output, an offset of 0, a copy past the end.
  std::string before = {4, 0x00, 'a', static_cast<char>((0 << 2) | 2), 2, 0};
  EXPECT_FALSE(snappy_decompress(bytes(before), before.size(), out.data(), 4));
  std::string zero = {4, 0x00, 'a', static_cast<char>((2 << 2) | 2), 0, 0};
  EXPECT_FALSE(snappy_decompress(bytes(zero), zero.size(), out.data(), 4));
  std::string past = {4, 0x00, 'a', static_cast<char>((7 << 2) | 2), 1, 0};
  EXPECT_FALSE(snappy_decompress(bytes(past), past.size(), out.data(), 4));
  // Every byte flipped: the decoder fails or fills exactly dst_size bytes, never writing past
  // them (the guard bytes after the output stay as they were).
  for (size_t i = 0; i < good.size(); ++i) {
    std::string bad = good;
    bad[i] = static_cast<char>(bad[i] ^ 0x5A);
    std::fill(out.begin() + 5016, out.end(), 0xAB);
    (void)snappy_decompress(bytes(bad), bad.size(), out.data(), 5016);
    for (size_t g = 5016; g < out.size(); ++g) ASSERT_EQ(out[g], 0xAB) << "byte " << i;
  }
  // The same over a block of short literals and copies (the decoder's unchecked fast loop).
  std::string ints;
  for (uint64_t i = 0; ints.size() < 4096; ++i) {
    uint64_t v = 1700000000000000ull + i * 1000 + (i * 7919) % 1000;
    ints.append(reinterpret_cast<const char*>(&v), 8);
  }
  std::string c = compress(ints);
  std::vector<uint8_t> big(ints.size() + 64);
  for (size_t i = 0; i < c.size(); ++i) {
    for (uint8_t flip : {0x5A, 0x01, 0x80}) {
      std::string bad = c;
      bad[i] = static_cast<char>(bad[i] ^ flip);
      std::fill(big.begin() + static_cast<std::ptrdiff_t>(ints.size()), big.end(), 0xAB);
      (void)snappy_decompress(bytes(bad), bad.size(), big.data(), ints.size());
      for (size_t g = ints.size(); g < big.size(); ++g) ASSERT_EQ(big[g], 0xAB) << "byte " << i;
    }
  }
  uint64_t len = 0;
  std::string overlong = "\xff\xff\xff\xff\xff\x01";
  EXPECT_FALSE(snappy_declared_length(bytes(overlong), overlong.size(), &len));
}

}  // namespace
}  // namespace floe::parquet::internal
