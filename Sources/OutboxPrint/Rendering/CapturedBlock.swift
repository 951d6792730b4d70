import CPangoCairo

/// A plain-text block's lines kept as what Pango's cairo renderer would hand to cairo: per run
/// a scaled font, glyph ids, positions and text clusters. About six bytes a glyph against
/// Pango's fifty a byte of text, so the layout pass can keep a long document's text for the
/// draw pass instead of laying it out twice. Drawing replays the calls
/// `pango_cairo_show_layout_line` makes (`cairo_show_text_glyphs`, same positions), so the PDF
/// is the same.
final class CapturedBlock {
    struct Line {
        /// Left edge of the line's logical box (alignment applied), in points.
        let x: Double
        let height: Double
        /// From the top of the line box to its baseline.
        let baseline: Double
        let runs: Range<Int>
    }

    struct Run {
        /// Index into `fonts`.
        let font: Int
        /// Pen position of the run from the line's start, Pango units.
        let x: Int32
        let y: Int32
        let glyphs: Range<Int>
        /// The run's text: a byte range of the block's text.
        let textOffset: Int32
        let textLength: Int32
        /// `clusters` range; empty when every cluster is one byte and one glyph.
        let clusters: Range<Int>
        let backward: Bool
    }

    private(set) var lines: [Line] = []
    private var runs: [Run] = []
    /// `cairo_scaled_font_t *`, one reference each.
    private var fonts: [OpaquePointer] = []
    private var glyphIDs: [UInt16] = []
    /// x (pen position plus offset) of each drawn glyph from its run's start, Pango units.
    private var glyphX: [Int32] = []
    /// y offsets by run index, only for runs that have any; almost always empty.
    private var glyphY: [Int: [Int32]] = [:]
    /// Bytes and glyphs of each cluster, for runs whose clusters are not all one to one.
    private var clusters: [cairo_text_cluster_t] = []

    /// Roughly what the block holds, for the capture budget.
    var bytes: Int { glyphIDs.count * 6 + runs.count * 56 + lines.count * 40 + clusters.count * 8 }

    private init() {}

    /// `nil` when the block uses something the replay does not do (a missing glyph drawn as a
    /// hex box, a font cairo cannot load, vertical text): it is laid out again to be drawn.
    static func capture(_ laid: LaidOutBlock, textLength: Int) -> CapturedBlock? {
        let captured = CapturedBlock()
        return captured.fill(from: laid, textLength: textLength) ? captured : nil
    }

    private func fill(from laid: LaidOutBlock, textLength: Int) -> Bool {
        guard let text = pango_layout_get_text(laid.layout), strlen(text) == textLength else { return false }
        // Filled in locals and stored at the end: cheaper than appending to properties.
        var lines = [Line](), runs = [Run](), glyphIDs = [UInt16](), glyphX = [Int32](), clusters = [cairo_text_cluster_t]()
        var glyphY: [Int: [Int32]] = [:]
        var lastFont: (scaled: OpaquePointer, index: Int)?
        var clusterStorage = [cairo_text_cluster_t]()
        // About a glyph a byte; trimmed to size at the end.
        glyphIDs.reserveCapacity(textLength)
        glyphX.reserveCapacity(textLength)
        lines.reserveCapacity(laid.lines.count)
        runs.reserveCapacity(laid.lines.count)
        defer {
            self.lines = lines
            self.runs = runs.withUnsafeBufferPointer { Array($0) }
            self.glyphIDs = glyphIDs.withUnsafeBufferPointer { Array($0) }
            self.glyphX = glyphX.withUnsafeBufferPointer { Array($0) }
            self.glyphY = glyphY
            self.clusters = clusters
        }
        for metrics in laid.lines {
            let firstRun = runs.count
            var xOff: Int32 = 0
            var node = metrics.line.pointee.runs
            while let current = node {
                node = current.pointee.next
                guard let run = current.pointee.data?.assumingMemoryBound(to: PangoGlyphItem.self),
                      let item = run.pointee.item, let glyphString = run.pointee.glyphs else { return false }
                let analysis = item.pointee.analysis
                guard analysis.flags & UInt8(PANGO_ANALYSIS_FLAG_CENTERED_BASELINE) == 0,
                      let pangoFont = analysis.font,
                      let scaled = pango_cairo_font_get_scaled_font(OpaquePointer(pangoFont)) else { return false }
                let font: Int
                if let lastFont, lastFont.scaled == scaled {
                    font = lastFont.index
                } else if let known = fonts.firstIndex(of: scaled) {
                    font = known
                } else {
                    guard cairo_scaled_font_status(scaled) == CAIRO_STATUS_SUCCESS else { return false }
                    font = fonts.count
                    fonts.append(cairo_scaled_font_reference(scaled))
                }
                lastFont = (scaled, font)
                xOff += run.pointee.start_x_offset
                let firstGlyph = glyphIDs.count
                var position: Int32 = 0
                var yOffsets: [Int32] = []
                let count = Int(glyphString.pointee.num_glyphs)
                let infos = glyphString.pointee.glyphs!
                let logClusters = glyphString.pointee.log_clusters!
                let backward = analysis.level & 1 != 0
                // One byte and one glyph a cluster, in order: the clusters need not be kept.
                var oneToOne = !backward && count == Int(item.pointee.length)
                for number in 0..<count {
                    let info = infos[number]
                    if info.glyph != PANGO_GLYPH_EMPTY {
                        guard info.glyph & PANGO_GLYPH_UNKNOWN_FLAG == 0, info.glyph <= UInt32(UInt16.max) else { return false }
                        glyphIDs.append(UInt16(truncatingIfNeeded: info.glyph))
                        glyphX.append(position &+ info.geometry.x_offset)
                        if info.geometry.y_offset != 0 && yOffsets.isEmpty {
                            yOffsets = Array(repeating: 0, count: glyphIDs.count - 1 - firstGlyph)
                        }
                        if !yOffsets.isEmpty || info.geometry.y_offset != 0 { yOffsets.append(info.geometry.y_offset) }
                    } else {
                        oneToOne = false
                    }
                    if logClusters[number] != Int32(number) { oneToOne = false }
                    position &+= info.geometry.width
                }
                let firstCluster = clusters.count
                if !oneToOne {
                    // The clusters pango_cairo_renderer_draw_glyph_item makes, empty and
                    // unknown glyphs discounted.
                    clusterStorage.removeAll(keepingCapacity: true)
                    var iterator = PangoGlyphItemIter()
                    if pango_glyph_item_iter_init_start(&iterator, run, text) != 0 {
                        repeat {
                            let bytes = iterator.end_index - iterator.start_index
                            var glyphs = backward ? iterator.start_glyph - iterator.end_glyph : iterator.end_glyph - iterator.start_glyph
                            for number in min(iterator.start_glyph, iterator.end_glyph + 1)..<max(iterator.start_glyph + 1, iterator.end_glyph) {
                                let glyph = infos[Int(number)].glyph
                                if glyph == PANGO_GLYPH_EMPTY || glyph & PANGO_GLYPH_UNKNOWN_FLAG != 0 { glyphs -= 1 }
                            }
                            clusterStorage.append(cairo_text_cluster_t(num_bytes: bytes, num_glyphs: glyphs))
                        } while pango_glyph_item_iter_next_cluster(&iterator) != 0
                    }
                    let trivial = clusterStorage.count == glyphIDs.count - firstGlyph
                        && clusterStorage.allSatisfy { $0.num_bytes == 1 && $0.num_glyphs == 1 }
                    if !trivial { clusters.append(contentsOf: clusterStorage) }
                }
                if !yOffsets.isEmpty { glyphY[runs.count] = yOffsets }
                runs.append(Run(font: font, x: xOff, y: -run.pointee.y_offset, glyphs: firstGlyph..<glyphIDs.count,
                                textOffset: item.pointee.offset, textLength: item.pointee.length,
                                clusters: firstCluster..<clusters.count, backward: backward))
                xOff &+= position &+ run.pointee.end_x_offset
            }
            lines.append(Line(x: metrics.x, height: metrics.height, baseline: metrics.baseline, runs: firstRun..<runs.count))
        }
        return true
    }

    /// Draws line `number` with its pen at the current point, as `pango_cairo_show_layout_line`
    /// would; `text` is the block's text.
    func draw(line number: Int, text: UnsafeBufferPointer<UInt8>, on cr: OpaquePointer, buffer: inout [cairo_glyph_t],
              oneToOne: inout [cairo_text_cluster_t]) {
        var originX = 0.0, originY = 0.0
        // Pango starts from the current point as cairo keeps it (fixed point), not as given.
        cairo_get_current_point(cr, &originX, &originY)
        let scale = Double(PANGO_SCALE)
        for index in lines[number].runs {
            let run = runs[index]
            let baseX = originX + Double(run.x) / scale
            let baseY = originY + Double(run.y) / scale
            let yOffsets = glyphY[index]
            buffer.removeAll(keepingCapacity: true)
            for glyph in run.glyphs {
                let offset = yOffsets?[glyph - run.glyphs.lowerBound] ?? 0
                buffer.append(cairo_glyph_t(index: UInt(glyphIDs[glyph]), x: baseX + Double(glyphX[glyph]) / scale,
                                            y: offset == 0 ? baseY : baseY + Double(offset) / scale))
            }
            cairo_set_scaled_font(cr, fonts[run.font])
            let flags = run.backward ? CAIRO_TEXT_CLUSTER_FLAG_BACKWARD : cairo_text_cluster_flags_t(0)
            let utf8 = UnsafeRawPointer(text.baseAddress! + Int(run.textOffset)).assumingMemoryBound(to: CChar.self)
            if run.clusters.isEmpty {
                if oneToOne.count < run.glyphs.count {
                    oneToOne = Array(repeating: cairo_text_cluster_t(num_bytes: 1, num_glyphs: 1), count: run.glyphs.count)
                }
                cairo_show_text_glyphs(cr, utf8, run.textLength, buffer, Int32(buffer.count), oneToOne, Int32(run.glyphs.count), flags)
            } else {
                clusters.withUnsafeBufferPointer { all in
                    cairo_show_text_glyphs(cr, utf8, run.textLength, buffer, Int32(buffer.count),
                                           all.baseAddress! + run.clusters.lowerBound, Int32(run.clusters.count), flags)
                }
            }
        }
    }

    deinit {
        for font in fonts { cairo_scaled_font_destroy(font) }
    }
}

@available(*, unavailable) extension CapturedBlock: Sendable {}
