import CPangoCairo

/// A colour as `#rrggbb`, the one form the model stores.
struct RGBColor: Equatable {
    var red: Double, green: Double, blue: Double

    init(red: Double, green: Double, blue: Double) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    init(hex: String) throws {
        let digits = hex.hasPrefix("#") ? String(hex.dropFirst()) : hex
        guard digits.count == 6, let value = UInt32(digits, radix: 16) else {
            throw PrintRenderError.bad("colour \(hex) is not #rrggbb")
        }
        red = Double((value >> 16) & 0xFF) / 255
        green = Double((value >> 8) & 0xFF) / 255
        blue = Double(value & 0xFF) / 255
    }

    /// A colour as Pango markup takes it (`#rgb`, `#rrggbb`, an X11 name such as `red`);
    /// `nil` for anything Pango would not take either.
    init?(markup: String) {
        var color = PangoColor()
        guard pango_color_parse(&color, markup) != 0 else { return nil }
        red = Double(color.red) / 65535
        green = Double(color.green) / 65535
        blue = Double(color.blue) / 65535
    }

    /// `#rrggbb`.
    var hex: String {
        func byte(_ value: Double) -> Int { Int((min(max(value, 0), 1) * 255).rounded()) }
        return "#" + [red, green, blue].map { value in
            let digits = String(byte(value), radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }.joined()
    }

    /// The same colour as a gray of equal luma (ITU-R BT.601), for `grayscale` output.
    var gray: RGBColor {
        let luma = 0.299 * red + 0.587 * green + 0.114 * blue
        return RGBColor(red: luma, green: luma, blue: luma)
    }
}
