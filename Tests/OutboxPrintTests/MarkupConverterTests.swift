import Testing
@testable import OutboxPrint

@Suite struct MarkupConverterTests {
    @Test func blocksAndInlineTags() {
        let blocks = MarkupConverter.convert("<p>One <b>two <i>three</b> four</i></p><ul><li>a &lt; b</li></ul>", baseSize: 10)
        #expect(blocks.map(\.markup) == ["One <b>two <i>three</i></b><i> four</i>", "•\u{00A0}a &lt; b"])
        #expect(blocks[1].indent == 15)
    }

    @Test func inlineTagsCloseAtBlockEndsAndReopen() {
        let blocks = MarkupConverter.convert("<b>bold<p>still bold</b> plain</p>", baseSize: 10)
        #expect(blocks.map(\.markup) == ["<b>bold</b>", "<b>still bold</b> plain"])
    }

    @Test func unknownTagsDroppedTextKeptAndWhitespaceCollapsed() {
        let blocks = MarkupConverter.convert("<article>  Hello\n\n   <blink>world</blink> </article><style>p{}</style><!-- note -->", baseSize: 10)
        #expect(blocks.map(\.markup) == ["Hello world"])
    }

    @Test func coloursAreCheckedBeforeReachingPango() {
        let good = MarkupConverter.convert("<font color=\"#00ff00\">g</font><span style=\"color: red\">r</span>", baseSize: 10)
        #expect(good.map(\.markup) == ["<span foreground=\"#00ff00\">g</span><span foreground=\"red\">r</span>"])
        let bad = MarkupConverter.convert("<font color='\" onload=x'>t</font>", baseSize: 10)
        #expect(bad.map(\.markup) == ["<span>t</span>"])
    }

    @Test func grayOutputWritesColoursAsTheirLuma() {
        let blocks = MarkupConverter.convert("<font color=\"#ff0000\">r</font><span style=\"color: blue\">b</span><font color=\"#fff\">w</font><font color=\"nosuchcolour\">x</font>",
                                             baseSize: 10, gray: true)
        // Red and blue by BT.601 luma; a name Pango does not know is left for Pango to refuse, as in colour.
        #expect(blocks.map(\.markup) == ["<span foreground=\"#4c4c4c\">r</span><span foreground=\"#1d1d1d\">b</span><span foreground=\"#ffffff\">w</span><span foreground=\"nosuchcolour\">x</span>"])
    }
}
