// The little XML S3 answers with (ListObjectsV2 pages, errors, multipart uploads): the text of
// named elements, entities decoded. S3's responses are flat and never use CDATA or attributes
// that matter here, so a scan for <Name>...</Name> is all it takes.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace floe::internal {

// The text of the first <name>...</name> in `xml` (entities decoded); empty when absent.
std::string xml_text(std::string_view xml, std::string_view name);

// The inner XML of every <name>...</name> in `xml`, in order (not decoded).
std::vector<std::string_view> xml_elements(std::string_view xml, std::string_view name);

// &amp; &lt; &gt; &quot; &apos; and numeric references (&#NN; &#xHH;) as UTF-8.
std::string xml_decode(std::string_view text);

// The reverse, for keys in a DeleteObjects body.
std::string xml_escape(std::string_view text);

}  // namespace floe::internal
