/// MIME types by file extension, for attachments whose content does not say.
enum MimeTypes {
    static let byExtension: [String: String] = [
        "txt": "text/plain", "text": "text/plain", "md": "text/markdown", "csv": "text/csv", "html": "text/html",
        "htm": "text/html", "xml": "application/xml", "json": "application/json", "pdf": "application/pdf",
        "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif", "webp": "image/webp",
        "svg": "image/svg+xml", "zip": "application/zip", "gz": "application/gzip", "tar": "application/x-tar",
        "ics": "text/calendar", "vcf": "text/vcard", "doc": "application/msword",
        "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "odt": "application/vnd.oasis.opendocument.text", "mp3": "audio/mpeg", "mp4": "video/mp4",
        "ttf": "font/ttf", "otf": "font/otf", "eml": "message/rfc822",
    ]

    static func guess(filename: String) -> String {
        guard let dot = filename.lastIndex(of: ".") else { return "application/octet-stream" }
        return byExtension[filename[filename.index(after: dot)...].lowercased()] ?? "application/octet-stream"
    }
}
