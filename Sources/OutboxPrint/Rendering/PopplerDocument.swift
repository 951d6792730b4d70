import CPangoCairo
import Foundation

/// A PDF opened with poppler-glib; its pages are replayed onto our cairo surface as vector
/// operations (`poppler_page_render_for_printing`), never rasterised.
final class PopplerDocument {
    /// `PopplerDocument *`
    let handle: OpaquePointer
    let pageCount: Int
    /// The name errors use.
    let path: String

    /// `name` is how errors call the file (its name as the user gave it).
    init(path: String, name: String) throws {
        self.path = name
        var error: UnsafeMutablePointer<GError>?
        guard let uri = g_filename_to_uri(URL(fileURLWithPath: path).standardizedFileURL.path, nil, &error) else {
            defer { g_error_free(error) }
            throw PrintRenderError.bad("\(name): \(error.map { String(cString: $0.pointee.message) } ?? "not a file path")")
        }
        defer { g_free(uri) }
        guard let document = poppler_document_new_from_file(uri, nil, &error) else {
            let reason = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
            g_error_free(error)
            throw PrintRenderError.bad("\(name) is not a readable PDF: \(reason)")
        }
        handle = document
        pageCount = Int(poppler_document_get_n_pages(document))
        guard pageCount > 0 else {
            outbox_g_object_unref(UnsafeMutableRawPointer(document))
            throw PrintRenderError.bad("\(name) is a PDF without pages")
        }
    }

    /// Page size in points.
    func size(ofPage index: Int) throws -> PaperSize {
        let page = try self.page(index)
        defer { outbox_g_object_unref(UnsafeMutableRawPointer(page)) }
        var width = 0.0, height = 0.0
        poppler_page_get_size(page, &width, &height)
        return PaperSize(width: width, height: height)
    }

    /// Draws page `index` into `cr` at the current transformation (its own size in points).
    func render(page index: Int, on cr: OpaquePointer) throws {
        let page = try self.page(index)
        defer { outbox_g_object_unref(UnsafeMutableRawPointer(page)) }
        poppler_page_render_for_printing(page, cr)
    }

    private func page(_ index: Int) throws -> OpaquePointer {
        guard let page = poppler_document_get_page(handle, Int32(index)) else {
            throw PrintRenderError.bad("\(path) has no page \(index + 1)")
        }
        return page
    }

    deinit { outbox_g_object_unref(UnsafeMutableRawPointer(handle)) }
}

@available(*, unavailable) extension PopplerDocument: Sendable {}
