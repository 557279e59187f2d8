// S3's XML answers (src/io/s3_xml_internal.h): elements by name (not by prefix), entities and
// numeric references decoded, keys escaped for DeleteObjects.
#include <gtest/gtest.h>

#include "io/s3_xml_internal.h"

namespace floe::internal {
namespace {

TEST(S3Xml, ElementsByExactName) {
  const std::string xml =
      "<ListBucketResult xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"><KeyCount>2</KeyCount>"
      "<Contents><Key>a &amp; b</Key><Size>3</Size></Contents>"
      "<Contents><Key>c&#x2F;d&#233;</Key><Size>0</Size></Contents>"
      "<Contents><Key/><Size>1</Size></Contents>"
      "<IsTruncated>false</IsTruncated></ListBucketResult>";
  auto contents = xml_elements(xml, "Contents");
  ASSERT_EQ(contents.size(), 3u);
  EXPECT_EQ(xml_text(contents[0], "Key"), "a & b");
  EXPECT_EQ(xml_text(contents[1], "Key"), "c/d\xc3\xa9");
  EXPECT_EQ(xml_text(contents[2], "Key"), "");
  EXPECT_EQ(xml_text(contents[2], "Size"), "1");
  // <KeyCount> is not <Key>: the three keys only.
  EXPECT_EQ(xml_elements(xml, "Key").size(), 3u);
  EXPECT_EQ(xml_elements("<KeyCount>2</KeyCount><KeyMarker/>", "Key").size(), 0u);
  EXPECT_EQ(xml_text(xml, "KeyCount"), "2");
  EXPECT_EQ(xml_text(xml, "IsTruncated"), "false");
  EXPECT_EQ(xml_text(xml, "NextContinuationToken"), "");
  // Attributes on the element.
  EXPECT_EQ(xml_elements(xml, "ListBucketResult").size(), 1u);
}

TEST(S3Xml, EntitiesDecodeAndMalformedOnesStay) {
  EXPECT_EQ(xml_decode("&lt;&gt;&quot;&apos;&amp;&#65;&#x1F600;"), "<>\"'&A\xf0\x9f\x98\x80");
  EXPECT_EQ(xml_decode("a & b; &bogus; &#xZZ; &#1114112;"), "a & b; &bogus; &#xZZ; &#1114112;");
  EXPECT_EQ(xml_decode("tail &amp"), "tail &amp");
}

TEST(S3Xml, EscapeRoundTrips) {
  const std::string key = "a<b>&\"c'd/\xc3\xbc\t";
  EXPECT_EQ(xml_escape(key), "a&lt;b&gt;&amp;&quot;c&apos;d/\xc3\xbc\t");
  EXPECT_EQ(xml_decode(xml_escape(key)), key);
  EXPECT_EQ(xml_escape(std::string("x\x01y")), "x&#1;y");
}

}  // namespace
}  // namespace floe::internal
