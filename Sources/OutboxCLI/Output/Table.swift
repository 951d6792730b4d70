/// A plain text table with aligned columns, for humans on a terminal.
public struct Table {
    public var headers: [String]
    public var rows: [[String]] = []
    /// Column widths (in terminal columns) are capped so one long subject cannot push the rest
    /// off screen.
    public var maxWidth = 48

    public init(_ headers: [String]) { self.headers = headers }

    /// Adds a row; line breaks and tabs in a cell become spaces, so a row stays one line.
    public mutating func add(_ row: [String]) {
        rows.append(row.map { cell in String(cell.map { $0.isNewline || $0 == "\t" ? " " : $0 }) })
    }

    public func render() -> String {
        let all = [headers] + rows
        var widths = Array(repeating: 0, count: headers.count)
        for row in all {
            for (i, cell) in row.enumerated() where i < widths.count { widths[i] = min(maxWidth, max(widths[i], TerminalWidth.of(cell))) }
        }
        return all.map { row in
            row.enumerated().map { i, cell in
                let text = TerminalWidth.truncated(cell, to: maxWidth)
                return i == row.count - 1 ? text : TerminalWidth.padded(text, to: widths[i])
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }
}
