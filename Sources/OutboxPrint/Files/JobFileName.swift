import Foundation

/// The PDF sink's file name: `<id>-<job name>.pdf`, the name made safe to use as one path
/// component (no separators or control characters, no leading dots, at most 80 characters).
enum JobFileName {
    static let maximumNameLength = 80

    static func make(messageID: Int64, jobName: String) -> String {
        "\(messageID)-\(sanitise(jobName)).pdf"
    }

    static func sanitise(_ name: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in name.unicodeScalars {
            let unsafe = scalar == "/" || scalar == "\\" || scalar.value < 0x20 || scalar.value == 0x7F
                || scalar.properties.generalCategory == .lineSeparator || scalar.properties.generalCategory == .paragraphSeparator
            scalars.append(unsafe ? "_" : scalar)
        }
        var clean = String(scalars).trimmingCharacters(in: .whitespaces)
        while clean.hasPrefix(".") { clean.removeFirst() }
        if clean.count > maximumNameLength { clean = String(clean.prefix(maximumNameLength)) }
        clean = clean.trimmingCharacters(in: .whitespaces)
        if clean.lowercased().hasSuffix(".pdf") { clean = String(clean.dropLast(4)) }
        return clean.isEmpty ? "job" : clean
    }
}
