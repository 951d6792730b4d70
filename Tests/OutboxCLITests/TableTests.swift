@testable import OutboxCLI
import Testing

@Suite("Tables align on terminal columns")
struct TableTests {
    @Test func wideAndCombiningCharactersCountTheirColumns() {
        #expect(TerminalWidth.of("Agenda") == 6)
        #expect(TerminalWidth.of("月曜日") == 6)
        #expect(TerminalWidth.of("e\u{301}") == 1)          // e + combining acute
        #expect(TerminalWidth.of("📦") == 2)
        #expect(TerminalWidth.of("한국어") == 6)
        #expect(TerminalWidth.of("👩‍💻") == 2)        // joined emoji
        #expect(TerminalWidth.of("🇯🇵") == 2)         // a flag
        #expect(TerminalWidth.of("❤️") == 2)          // U+2764 U+FE0F
    }

    @Test func aCellWithLineBreaksStaysOnItsRow() {
        var table = Table(["TEXT", "N"])
        table.add(["first line\nsecond\tline", "1"])
        #expect(table.render().split(separator: "\n").count == 2)
    }

    @Test func columnsLineUpAfterAJapaneseCell() {
        var table = Table(["SUBJECT", "TRIES"])
        table.add(["Agenda — 月曜日", "1/10"])
        table.add(["Agenda", "1/8"])
        let lines = table.render().split(separator: "\n").map(String.init)
        let header = TerminalWidth.of(String(lines[0][..<lines[0].range(of: "TRIES")!.lowerBound]))
        let columns = lines.dropFirst().map { line in TerminalWidth.of(String(line[..<line.range(of: "1/")!.lowerBound])) }
        #expect(columns == [header, header], "\(lines)")
    }

    @Test func longCellsAreCutToTheCapInColumns() {
        var table = Table(["SUBJECT", "X"])
        table.maxWidth = 10
        table.add([String(repeating: "日", count: 20), "x"])
        let line = String(table.render().split(separator: "\n")[1])
        #expect(TerminalWidth.of(String(line.prefix(while: { $0 != " " }))) <= 10)
        #expect(line.contains("…"))
    }
}
