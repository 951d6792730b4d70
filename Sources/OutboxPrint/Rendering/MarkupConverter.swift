import Foundation

/// Turns the HTML subset of markup formatters into Pango markup, one block per block element:
/// h1–h3, p/div, li (with its bullet or number), and br inside a block; b/strong, i/em, u, s,
/// code, sub/sup and `<font color>` / `style="color:…"` inline. Unknown tags are dropped and
/// their text kept; script/style/head content is dropped. Whitespace collapses as in HTML.
///
/// Pango does the layout; this only maps tags, so the output is always well-formed markup
/// (text is escaped, inline tags are closed at block ends and reopened in the next block).
struct MarkupConverter {
    struct Block: Equatable {
        var markup: String
        var indent: Double
        var spaceBefore: Double
    }

    private struct Inline {
        var tag: String
        var open: String
        var close: String
    }

    private struct BlockStyle {
        var indent: Double = 0
        var spaceBefore: Double = 0
        var open = ""
        var close = ""
    }

    let baseSize: Double
    /// Colours are written as the gray of equal luma (`grayscale` output).
    let gray: Bool
    private var blocks: [Block] = []
    private var current = ""
    private var hasText = false
    private var pendingSpace = false
    private var inlines: [Inline] = []
    private var style = BlockStyle()
    private var lists: [(ordered: Bool, counter: Int)] = []
    private var skipping: String?

    /// `baseSize`: the formatter's font size in points (headings are multiples of it); with
    /// `gray`, colours come out as grays, so the page needs no colour conversion afterwards.
    static func convert(_ html: String, baseSize: Double, gray: Bool = false) -> [Block] {
        var converter = MarkupConverter(baseSize: baseSize, gray: gray)
        converter.run(Array(html))
        converter.flush()
        return converter.blocks
    }

    private init(baseSize: Double, gray: Bool) {
        self.baseSize = baseSize
        self.gray = gray
    }

    // MARK: - Scanning

    private mutating func run(_ chars: [Character]) {
        var i = 0
        var text = ""
        while i < chars.count {
            if chars[i] == "<" {
                if chars[i...].starts(with: ["<", "!", "-", "-"]) {
                    appendText(text); text = ""
                    i = Self.find(["-", "-", ">"], in: chars, from: i + 4).map { $0 + 3 } ?? chars.count
                    continue
                }
                if let close = chars[(i + 1)...].firstIndex(of: ">") {
                    appendText(text); text = ""
                    tag(String(chars[(i + 1)..<close]))
                    i = close + 1
                    continue
                }
            }
            text.append(chars[i])
            i += 1
        }
        appendText(text)
    }

    private static func find(_ needle: [Character], in chars: [Character], from start: Int) -> Int? {
        guard needle.count <= chars.count else { return nil }
        var i = start
        while i + needle.count <= chars.count {
            if chars[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }

    // MARK: - Text

    private mutating func appendText(_ raw: String) {
        guard skipping == nil, !raw.isEmpty else { return }
        for char in Self.decodeEntities(raw) {
            if char.isWhitespace && char != "\u{00A0}" {
                pendingSpace = true
                continue
            }
            if pendingSpace && hasText { current += " " }
            pendingSpace = false
            current += Self.escape(char)
            hasText = true
        }
    }

    static func escape(_ char: Character) -> String {
        switch char {
        case "&": "&amp;"
        case "<": "&lt;"
        case ">": "&gt;"
        case "\"": "&quot;"
        case "'": "&#39;"
        default: String(char)
        }
    }

    static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        let named: [String: String] = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{00A0}",
                                       "mdash": "—", "ndash": "–", "hellip": "…", "copy": "©", "euro": "€"]
        var out = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            let after = rest[rest.index(after: amp)...]
            if let semi = after.prefix(10).firstIndex(of: ";") {
                let name = String(after[..<semi])
                var value: String?
                if name.hasPrefix("#x") || name.hasPrefix("#X") {
                    value = UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
                } else if name.hasPrefix("#") {
                    value = UInt32(name.dropFirst()).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
                } else {
                    value = named[name.lowercased()]
                }
                if let value {
                    out += value
                    rest = after[after.index(after: semi)...]
                    continue
                }
            }
            out += "&"
            rest = after
        }
        return out + rest
    }

    // MARK: - Tags

    private mutating func tag(_ body: String) {
        let closing = body.hasPrefix("/")
        let trimmed = closing ? body.dropFirst() : Substring(body)
        let name = String(trimmed.prefix { $0.isLetter || $0.isNumber }).lowercased()
        guard !name.isEmpty else { return }
        if let skipped = skipping {
            if closing && name == skipped { skipping = nil }
            return
        }
        let attributes = Self.attributes(String(trimmed.dropFirst(name.count)))
        switch (name, closing) {
        case ("script", false), ("style", false), ("head", false), ("title", false):
            if !body.hasSuffix("/") { skipping = name }
        case ("h1", false), ("h2", false), ("h3", false):
            let factor = ["h1": 2.0, "h2": 1.5, "h3": 1.17][name]!
            startBlock(BlockStyle(indent: listIndent, spaceBefore: baseSize * 0.8,
                                  open: "<span weight=\"bold\" size=\"\(Int(baseSize * factor * 1024))\">", close: "</span>"))
        case ("h1", true), ("h2", true), ("h3", true), ("p", true), ("div", true):
            startBlock(BlockStyle(indent: listIndent, spaceBefore: baseSize * 0.5))
        case ("p", false), ("div", false), ("blockquote", false):
            startBlock(BlockStyle(indent: listIndent, spaceBefore: baseSize * 0.5))
        case ("br", _):
            current += "\n"
            hasText = true
            pendingSpace = false
        case ("ul", false), ("ol", false):
            lists.append((name == "ol", 0))
            startBlock(BlockStyle(indent: listIndent, spaceBefore: baseSize * 0.3))
        case ("ul", true), ("ol", true):
            if !lists.isEmpty { lists.removeLast() }
            startBlock(BlockStyle(indent: listIndent, spaceBefore: baseSize * 0.3))
        case ("li", false):
            startBlock(BlockStyle(indent: listIndent, spaceBefore: baseSize * 0.2))
            var marker = "•"
            if let last = lists.indices.last, lists[last].ordered {
                lists[last].counter += 1
                marker = "\(lists[last].counter)."
            }
            current += marker + "\u{00A0}"
            hasText = true
            pendingSpace = false
        case ("li", true):
            startBlock(BlockStyle(indent: listIndent, spaceBefore: baseSize * 0.2))
        default:
            if closing {
                closeInline(name)
            } else if let inline = Self.inline(name, attributes, gray: gray) {
                // "One <b>two": the space belongs before the tag, outside the bold run.
                if pendingSpace && hasText { current += " " }
                pendingSpace = false
                inlines.append(inline)
                current += inline.open
            }
        }
    }

    private var listIndent: Double { Double(lists.count) * baseSize * 1.5 }

    private static func inline(_ name: String, _ attributes: [String: String], gray: Bool) -> Inline? {
        switch name {
        case "b", "strong": return Inline(tag: name, open: "<b>", close: "</b>")
        case "i", "em", "cite", "var": return Inline(tag: name, open: "<i>", close: "</i>")
        case "u", "ins": return Inline(tag: name, open: "<u>", close: "</u>")
        case "s", "strike", "del": return Inline(tag: name, open: "<s>", close: "</s>")
        case "code", "tt", "kbd", "samp": return Inline(tag: name, open: "<tt>", close: "</tt>")
        case "sub": return Inline(tag: name, open: "<sub>", close: "</sub>")
        case "sup": return Inline(tag: name, open: "<sup>", close: "</sup>")
        case "font", "span":
            var color = attributes["color"]
            if let css = attributes["style"] {
                for declaration in css.split(separator: ";") {
                    let pair = declaration.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                    if pair.count == 2, pair[0].lowercased() == "color" { color = pair[1] }
                }
            }
            // Any other font/span still needs a matching close; an empty span keeps nesting right.
            guard var color, isSafeColor(color) else { return Inline(tag: name, open: "<span>", close: "</span>") }
            // A name Pango does not know stays as it is, so the markup error is the same as in colour.
            if gray, let parsed = RGBColor(markup: color) { color = parsed.gray.hex }
            return Inline(tag: name, open: "<span foreground=\"\(color)\">", close: "</span>")
        default: return nil
        }
    }

    private static func isSafeColor(_ color: String) -> Bool {
        if color.hasPrefix("#") {
            let hex = color.dropFirst()
            return (hex.count == 3 || hex.count == 6) && hex.allSatisfy(\.isHexDigit)
        }
        return !color.isEmpty && color.count < 30 && color.allSatisfy { $0.isASCII && $0.isLetter }
    }

    private mutating func closeInline(_ name: String) {
        guard let index = inlines.lastIndex(where: { $0.tag == name }) else { return }
        for inline in inlines[index...].reversed() { current += inline.close }
        let reopened = inlines[(index + 1)...]
        inlines.remove(at: index)
        for inline in reopened { current += inline.open }
    }

    static func attributes(_ text: String) -> [String: String] {
        var result: [String: String] = [:]
        let chars = Array(text)
        var i = 0
        while i < chars.count {
            while i < chars.count, !(chars[i].isLetter) { i += 1 }
            let start = i
            while i < chars.count, chars[i].isLetter || chars[i] == "-" { i += 1 }
            let key = String(chars[start..<i]).lowercased()
            while i < chars.count, chars[i] == " " { i += 1 }
            guard i < chars.count, chars[i] == "=" else { continue }
            i += 1
            while i < chars.count, chars[i] == " " { i += 1 }
            var value = ""
            if i < chars.count, chars[i] == "\"" || chars[i] == "'" {
                let quote = chars[i]
                i += 1
                while i < chars.count, chars[i] != quote { value.append(chars[i]); i += 1 }
                i += 1
            } else {
                while i < chars.count, !chars[i].isWhitespace { value.append(chars[i]); i += 1 }
            }
            if !key.isEmpty { result[key] = decodeEntities(value) }
        }
        return result
    }

    // MARK: - Blocks

    private mutating func startBlock(_ next: BlockStyle) {
        flush()
        style = next
    }

    private mutating func flush() {
        defer {
            current = inlines.map(\.open).joined()
            hasText = false
            pendingSpace = false
        }
        guard hasText else { return }
        var markup = current
        for inline in inlines.reversed() { markup += inline.close }
        blocks.append(Block(markup: style.open + markup + style.close, indent: style.indent, spaceBefore: style.spaceBefore))
    }
}
