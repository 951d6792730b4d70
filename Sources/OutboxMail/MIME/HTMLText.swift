import Foundation

/// A plain-text rendering of an HTML body, for the `text/plain` alternative of an HTML-only
/// mail: block ends become line breaks, tags are dropped, common entities decoded. Not a
/// browser — just enough that a text-only reader sees the words.
enum HTMLText {
    static func plainText(_ html: String) -> String {
        var out = ""
        var index = html.startIndex
        var skipping: String?
        while index < html.endIndex {
            let character = html[index]
            if character == "<", let close = html[index...].firstIndex(of: ">") {
                let tag = html[html.index(after: index)..<close].lowercased()
                let name = tag.split(whereSeparator: { $0 == " " || $0 == "/" || $0 == "\t" }).first.map(String.init) ?? ""
                if let skip = skipping {
                    if tag.hasPrefix("/") && tag.dropFirst().hasPrefix(skip) { skipping = nil }
                } else if name == "script" || name == "style" {
                    skipping = name
                } else if ["br", "p", "/p", "div", "/div", "li", "tr", "/h1", "/h2", "/h3", "/h4", "/h5", "/h6"]
                    .contains(tag.hasPrefix("/") ? "/" + (tag.dropFirst().split(separator: " ").first.map(String.init) ?? "") : name) {
                    if !out.hasSuffix("\n") && !out.isEmpty { out += "\n" }
                }
                index = html.index(after: close)
                continue
            }
            if skipping == nil { out.append(character) }
            index = html.index(after: index)
        }
        let entities = [("&nbsp;", " "), ("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&apos;", "'"), ("&amp;", "&")]
        for (entity, text) in entities { out = out.replacingOccurrences(of: entity, with: text) }
        return out.trimmingCharacters(in: .whitespacesAndNewlines) + "\n"
    }
}
