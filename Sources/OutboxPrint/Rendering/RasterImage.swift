import CPangoCairo
import Foundation
import OutboxModel

/// A PNG or JPEG file to draw. PNGs are decoded by cairo; JPEGs are never decoded: cairo's PDF
/// surface embeds the original bytes (DCTDecode) when they are attached as mime data, so a
/// photo keeps its full resolution and the PDF stays small.
final class RasterImage {
    enum Format { case png, jpeg }

    let path: String
    let format: Format
    /// Pixels.
    let width: Int
    let height: Int

    /// Reads just enough to know the format and size; throws `badInput` for anything that is
    /// not a readable PNG or JPEG.
    /// `name` is how errors call the file (its name as the user gave it).
    init(path: String, name: String) throws {
        self.path = path
        let head = try Self.head(path, name: name, count: 64 * 1024)
        switch DocumentType.sniff(head) {
        case .png?:
            // Decode once now so a corrupt PNG is refused at compose time, not at print time.
            let surface = cairo_image_surface_create_from_png(path)
            defer { cairo_surface_destroy(surface) }
            let status = cairo_surface_status(surface)
            guard status == CAIRO_STATUS_SUCCESS else {
                throw PrintRenderError.bad("\(name) is not a readable PNG image: \(String(cString: cairo_status_to_string(status)))")
            }
            format = .png
            width = Int(cairo_image_surface_get_width(surface))
            height = Int(cairo_image_surface_get_height(surface))
        case .jpeg?:
            guard let size = Self.jpegSize(head) else {
                throw PrintRenderError.bad("\(name) is not a readable JPEG image: no frame header in its first 64 KB")
            }
            format = .jpeg
            (width, height) = size
        default:
            throw PrintRenderError.bad("\(name) is not a PNG or JPEG image (unknown image format)")
        }
        guard width > 0, height > 0 else { throw PrintRenderError.bad("\(name) is an empty image") }
    }

    var isWide: Bool { width > height }

    /// A cairo surface for drawing; the caller destroys it.
    func makeSurface() throws -> OpaquePointer {
        switch format {
        case .png:
            let surface = cairo_image_surface_create_from_png(path)!
            let status = cairo_surface_status(surface)
            guard status == CAIRO_STATUS_SUCCESS else {
                cairo_surface_destroy(surface)
                throw PrintRenderError.bad("\(path) is not a readable PNG image: \(String(cString: cairo_status_to_string(status)))")
            }
            return surface
        case .jpeg:
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            guard let bytes = malloc(data.count) else { throw PrintRenderError(.internal, "out of memory for \(path)") }
            data.copyBytes(to: bytes.assumingMemoryBound(to: UInt8.self), count: data.count)
            // The pixels are never read by the PDF backend once the JPEG is attached.
            let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(width), Int32(height))!
            let status = cairo_surface_set_mime_data(surface, "image/jpeg", bytes.assumingMemoryBound(to: UInt8.self),
                                                     UInt(data.count), outbox_free, bytes)
            guard status == CAIRO_STATUS_SUCCESS, cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
                free(bytes)
                cairo_surface_destroy(surface)
                throw PrintRenderError(.internal, "cairo could not attach \(path)")
            }
            return surface
        }
    }

    static func head(_ path: String, name: String, count: Int) throws -> [UInt8] {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw PrintRenderError.bad("cannot read \(name)")
        }
        defer { try? handle.close() }
        return [UInt8]((try? handle.read(upToCount: count)) ?? Data())
    }

    /// Width and height from the first start-of-frame marker (any SOFn but DHT/JPG/DAC).
    static func jpegSize(_ bytes: [UInt8]) -> (Int, Int)? {
        var i = 2
        while i + 9 < bytes.count {
            guard bytes[i] == 0xFF else { return nil }
            let marker = bytes[i + 1]
            if marker == 0xFF { i += 1; continue }
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { i += 2; continue }
            let length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            if (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker) {
                let height = Int(bytes[i + 5]) << 8 | Int(bytes[i + 6])
                let width = Int(bytes[i + 7]) << 8 | Int(bytes[i + 8])
                return (width, height)
            }
            guard length >= 2 else { return nil }
            i += 2 + length
        }
        return nil
    }
}

@available(*, unavailable) extension RasterImage: Sendable {}
