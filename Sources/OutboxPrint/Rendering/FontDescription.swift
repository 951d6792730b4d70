import CPangoCairo

/// An owned `PangoFontDescription`, freed on deinit.
final class FontDescription {
    /// `PangoFontDescription *`
    let handle: OpaquePointer

    init(_ handle: OpaquePointer) { self.handle = handle }

    /// Parses a Pango description (`DejaVu Serif 11`, `Noto Sans CJK JP Bold 12`).
    convenience init(string: String) {
        self.init(pango_font_description_from_string(string))
    }

    /// The face of a TTF/OTF file (family, weight, slant, width from the file itself) at the
    /// size of `sizeFrom`. Throws `badInput` when the file is not a font fontconfig can read.
    static func fromFile(_ path: String, name: String, sizeFrom: FontDescription) throws -> FontDescription {
        var count: Int32 = 0
        guard let pattern = FcFreeTypeQuery(path, 0, nil, &count) else {
            throw PrintRenderError.bad("\(name) is not a TrueType or OpenType font file")
        }
        defer { FcPatternDestroy(pattern) }
        guard let description = pango_fc_font_description_from_pattern(pattern, 0) else {
            throw PrintRenderError.bad("\(name): fontconfig read no family name from the font")
        }
        let result = FontDescription(description)
        pango_font_description_set_size(description, sizeFrom.size)
        return result
    }

    /// Size in Pango units (1/1024 pt).
    var size: Int32 {
        let size = pango_font_description_get_size(handle)
        return size > 0 ? size : 11 * PANGO_SCALE
    }

    var points: Double { Double(size) / Double(PANGO_SCALE) }

    func copy() -> FontDescription { FontDescription(pango_font_description_copy(handle)) }

    var familyName: String {
        pango_font_description_get_family(handle).map { String(cString: $0) } ?? ""
    }

    deinit { pango_font_description_free(handle) }
}
