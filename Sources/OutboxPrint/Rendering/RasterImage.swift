import CPangoCairo
import Foundation
import OutboxModel

/// A PNG or JPEG file to draw. PNGs are decoded by cairo; JPEGs are not decoded for colour
/// output: cairo's PDF surface embeds the original bytes (DCTDecode) when they are attached as
/// mime data, so a photo keeps its full resolution and the PDF stays small.
///
/// For grayscale output the pixels are made gray (R = G = B) before drawing: cairo's PDF
/// surface then embeds one DeviceGray image, and nothing on the page needs a blend. A colour
/// JPEG is decoded for that by poppler (the only JPEG decoder among our libraries).
final class RasterImage {
    enum Format { case png, jpeg }

    let path: String
    let format: Format
    /// Pixels.
    let width: Int
    let height: Int
    /// Colour components of a JPEG (1: already gray); 3 for a PNG.
    let components: Int

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
            components = 3
            width = Int(cairo_image_surface_get_width(surface))
            height = Int(cairo_image_surface_get_height(surface))
        case .jpeg?:
            guard let frame = Self.jpegFrame(head) else {
                throw PrintRenderError.bad("\(name) is not a readable JPEG image: no frame header in its first 64 KB")
            }
            format = .jpeg
            (width, height, components) = frame
        default:
            throw PrintRenderError.bad("\(name) is not a PNG or JPEG image (unknown image format)")
        }
        guard width > 0, height > 0 else { throw PrintRenderError.bad("\(name) is an empty image") }
    }

    var isWide: Bool { width > height }

    /// A cairo surface for drawing; the caller destroys it. With `gray`, its pixels are gray.
    func makeSurface(gray: Bool = false) throws -> OpaquePointer {
        switch format {
        case .png:
            let surface = cairo_image_surface_create_from_png(path)!
            let status = cairo_surface_status(surface)
            guard status == CAIRO_STATUS_SUCCESS else {
                cairo_surface_destroy(surface)
                throw PrintRenderError.bad("\(path) is not a readable PNG image: \(String(cString: cairo_status_to_string(status)))")
            }
            if gray { Self.desaturate(surface) }
            return surface
        case .jpeg:
            // A one-component JPEG is gray already: its bytes are embedded as they are.
            guard gray, components != 1 else { return try jpegSurface() }
            let decoded = try decodedJPEG()
            Self.desaturate(decoded)
            return decoded
        }
    }

    /// An image surface whose only content is the JPEG as mime data.
    private func jpegSurface() throws -> OpaquePointer {
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

    /// The JPEG's pixels: cairo writes a one-page PDF in memory holding the JPEG at a point a
    /// pixel, and poppler renders that page at 72 dpi into an image surface, pixel for pixel.
    private func decodedJPEG() throws -> OpaquePointer {
        let jpeg = try jpegSurface()
        defer { cairo_surface_destroy(jpeg) }
        let pdfBytes = NSMutableData()
        let pdf = cairo_pdf_surface_create_for_stream({ closure, data, length in
            guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
            Unmanaged<NSMutableData>.fromOpaque(closure).takeUnretainedValue().append(data, length: Int(length))
            return CAIRO_STATUS_SUCCESS
        }, Unmanaged.passUnretained(pdfBytes).toOpaque(), Double(width), Double(height))!
        let writer = cairo_create(pdf)!
        cairo_set_source_surface(writer, jpeg, 0, 0)
        cairo_paint(writer)
        cairo_destroy(writer)
        cairo_surface_finish(pdf)
        let written = cairo_surface_status(pdf)
        cairo_surface_destroy(pdf)
        guard written == CAIRO_STATUS_SUCCESS else {
            throw PrintRenderError(.internal, "cairo could not wrap \(path): \(String(cString: cairo_status_to_string(written)))")
        }
        let bytes = g_bytes_new(pdfBytes.bytes, gsize(pdfBytes.length))
        defer { g_bytes_unref(bytes) }
        var error: UnsafeMutablePointer<GError>?
        guard let document = poppler_document_new_from_bytes(bytes, nil, &error) else {
            let reason = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
            g_error_free(error)
            throw PrintRenderError.bad("\(path) is not a readable JPEG image: \(reason)")
        }
        defer { outbox_g_object_unref(UnsafeMutableRawPointer(document)) }
        guard let page = poppler_document_get_page(document, 0) else {
            throw PrintRenderError.bad("\(path) is not a readable JPEG image")
        }
        defer { outbox_g_object_unref(UnsafeMutableRawPointer(page)) }
        let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(width), Int32(height))!
        let cr = cairo_create(surface)!
        cairo_set_source_rgb(cr, 1, 1, 1)
        cairo_paint(cr)
        poppler_page_render(page, cr)
        let status = cairo_status(cr)
        cairo_destroy(cr)
        guard status == CAIRO_STATUS_SUCCESS, cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            throw PrintRenderError(.internal, "\(path) could not be decoded: \(String(cString: cairo_status_to_string(status)))")
        }
        return surface
    }

    /// Sets every pixel of an RGB24 or ARGB32 surface to its luma (BT.601, as `RGBColor.gray`).
    /// Premultiplied alpha needs no care: luma is linear, so the luma of premultiplied
    /// components is the premultiplied luma.
    static func desaturate(_ surface: OpaquePointer) {
        let format = cairo_image_surface_get_format(surface)
        guard format == CAIRO_FORMAT_RGB24 || format == CAIRO_FORMAT_ARGB32 else { return }
        cairo_surface_flush(surface)
        guard let data = cairo_image_surface_get_data(surface) else { return }
        let width = Int(cairo_image_surface_get_width(surface)), height = Int(cairo_image_surface_get_height(surface))
        let stride = Int(cairo_image_surface_get_stride(surface))
        for row in 0..<height {
            let pixels = UnsafeMutableRawPointer(data + row * stride).assumingMemoryBound(to: UInt32.self)
            for column in 0..<width {
                let pixel = pixels[column]
                let red = (pixel >> 16) & 0xFF, green = (pixel >> 8) & 0xFF, blue = pixel & 0xFF
                let luma = (299 * red + 587 * green + 114 * blue + 500) / 1000
                pixels[column] = pixel & 0xFF00_0000 | luma << 16 | luma << 8 | luma
            }
        }
        cairo_surface_mark_dirty(surface)
    }

    static func head(_ path: String, name: String, count: Int) throws -> [UInt8] {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw PrintRenderError.bad("cannot read \(name)")
        }
        defer { try? handle.close() }
        return [UInt8]((try? handle.read(upToCount: count)) ?? Data())
    }

    /// Width, height and component count from the first start-of-frame marker (any SOFn but
    /// DHT/JPG/DAC).
    static func jpegFrame(_ bytes: [UInt8]) -> (width: Int, height: Int, components: Int)? {
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
                return (width, height, Int(bytes[i + 9]))
            }
            guard length >= 2 else { return nil }
            i += 2 + length
        }
        return nil
    }
}

@available(*, unavailable) extension RasterImage: Sendable {}
