import CPangoCairo

/// The C objects of one render: a cairo PDF surface and its context, and a pango font map and
/// context built on the surface's font options (no hinting: a PDF is device independent, so
/// the layout pass measures exactly what the draw pass draws). Freed by `close()`.
final class RenderSession {
    /// `cairo_surface_t *`
    let surface: OpaquePointer
    /// `cairo_t *`
    let cr: OpaquePointer
    let fontMap: UnsafeMutablePointer<PangoFontMap>
    /// `PangoContext *`
    let context: OpaquePointer
    private var closed = false

    /// Opens a PDF surface writing to `path` (`nil`: a layout-only surface that writes nothing),
    /// with `fontFiles` added to a private fontconfig configuration so a TTF/OTF given by the
    /// user is found by family name without installing it.
    init(path: String?, firstPage: PaperSize, fontFiles: [String]) throws {
        guard let surface = cairo_pdf_surface_create(path, firstPage.width, firstPage.height) else {
            throw PrintRenderError(.internal, "cairo_pdf_surface_create returned nothing")
        }
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            throw PrintRenderError(.io, "cannot create \(path ?? "PDF"): \(String(cString: cairo_status_to_string(status)))")
        }
        guard let cr = cairo_create(surface), cairo_status(cr) == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            throw PrintRenderError(.internal, "cairo_create failed")
        }
        guard let fontMap = pango_cairo_font_map_new() else {
            cairo_destroy(cr)
            cairo_surface_destroy(surface)
            throw PrintRenderError(.internal, "pango_cairo_font_map_new failed")
        }
        if !fontFiles.isEmpty {
            guard let config = FcInitLoadConfigAndFonts() else {
                outbox_g_object_unref(fontMap)
                cairo_destroy(cr)
                cairo_surface_destroy(surface)
                throw PrintRenderError(.internal, "fontconfig could not load its configuration")
            }
            for file in fontFiles where FcConfigAppFontAddFile(config, file) == 0 {
                FcConfigDestroy(config)
                outbox_g_object_unref(fontMap)
                cairo_destroy(cr)
                cairo_surface_destroy(surface)
                throw PrintRenderError.bad("fontconfig cannot load the font file \(file)")
            }
            // The font map takes its own reference.
            pango_fc_font_map_set_config(outbox_pango_fc_font_map(fontMap), config)
            FcConfigDestroy(config)
        }
        guard let context = pango_font_map_create_context(fontMap) else {
            outbox_g_object_unref(fontMap)
            cairo_destroy(cr)
            cairo_surface_destroy(surface)
            throw PrintRenderError(.internal, "pango_font_map_create_context failed")
        }
        pango_cairo_update_context(cr, context)
        // A PDF surface counts in points: at Pango's default 96 dpi "DejaVu Serif 11" would be
        // set at 14.7 pt. At 72 dpi a point size is what lands on the page.
        pango_cairo_context_set_resolution(context, 72)
        // Glyphs at the font's own advances: rounding them to whole points (Pango's default)
        // spaces letters unevenly and makes cairo write a kerning number between every glyph.
        pango_context_set_round_glyph_positions(context, 0)
        self.surface = surface
        self.cr = cr
        self.fontMap = fontMap
        self.context = context
    }

    func setMetadata(title: String?, author: String?) {
        if let title { cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE, title) }
        if let author { cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_AUTHOR, author) }
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, "outbox")
    }

    /// Finishes the PDF (cairo writes the font subsets and the trailer here) and frees
    /// everything; throws if any cairo call failed on the way.
    func close() throws {
        guard !closed else { return }
        closed = true
        let drawStatus = cairo_status(cr)
        outbox_g_object_unref(UnsafeMutableRawPointer(context))
        outbox_g_object_unref(fontMap)
        cairo_destroy(cr)
        cairo_surface_finish(surface)
        let status = cairo_surface_status(surface)
        cairo_surface_destroy(surface)
        for code in [drawStatus, status] where code != CAIRO_STATUS_SUCCESS {
            let kind: PrintRenderError.Kind = code == CAIRO_STATUS_WRITE_ERROR ? .io : .internal
            throw PrintRenderError(kind, "cairo: \(String(cString: cairo_status_to_string(code)))")
        }
    }

    /// Releases without reporting (an error path already threw).
    func abandon() { try? close() }

    deinit { abandon() }
}

@available(*, unavailable) extension RenderSession: Sendable {}
