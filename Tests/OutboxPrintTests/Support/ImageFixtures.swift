import CPangoCairo
import Foundation

/// Images generated at test time (no binary fixtures in the repository).
enum ImageFixtures {
    /// A solid-colour PNG written with cairo.
    static func png(width: Int32, height: Int32, red: Double = 1, green: Double = 0, blue: Double = 0, in directory: String) -> String {
        let path = directory + "/image-\(width)x\(height).png"
        let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height)
        let cr = cairo_create(surface)
        cairo_set_source_rgb(cr, red, green, blue)
        cairo_paint(cr)
        cairo_destroy(cr)
        cairo_surface_write_to_png(surface, path)
        cairo_surface_destroy(surface)
        return path
    }

    /// A JPEG made by `pdftoppm -jpeg` from a PNG-only PDF page; with `gray`, a one-component
    /// one by `pdftocairo -gray` (pdftoppm writes three components even with -gray).
    static func jpeg(from pdf: String, gray: Bool = false, in directory: String) throws -> String {
        let prefix = directory + (gray ? "/photo-gray" : "/photo")
        try PDFTools.run([gray ? "pdftocairo" : "pdftoppm", "-jpeg"] + (gray ? ["-gray"] : [])
                         + ["-r", "10", "-f", "1", "-l", "1", "-singlefile", pdf, prefix])
        return prefix + ".jpg"
    }
}
