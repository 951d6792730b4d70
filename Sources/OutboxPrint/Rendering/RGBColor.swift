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

    /// The same colour as a gray of equal luma (ITU-R BT.601), for `grayscale` output.
    var gray: RGBColor {
        let luma = 0.299 * red + 0.587 * green + 0.114 * blue
        return RGBColor(red: luma, green: luma, blue: luma)
    }
}
