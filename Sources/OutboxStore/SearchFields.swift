import OutboxSQLite
import OutboxModel

/// The text of a message indexed for `history --search`. The index is contentless, so removing
/// a row needs exactly the values it was indexed with: both come from here.
struct SearchFields {
    var subject: String
    var body: String
    var recipients: String
    var jobName: String

    init(_ content: MessageContent) {
        switch content {
        case .mail(let mail):
            subject = mail.subject
            switch (mail.textBody, mail.htmlBody) {
            case (let text?, let html?): body = text + "\n" + html
            case (let text, let html): body = text ?? html ?? ""
            }
            recipients = ([mail.sender].compactMap { $0 } + mail.to + mail.cc + mail.bcc).joined(separator: " ")
            jobName = ""
        case .sms(let sms):
            subject = ""
            body = sms.body
            recipients = [sms.recipient, sms.sender].compactMap { $0 }.joined(separator: " ")
            jobName = ""
        case .print(let job):
            subject = ""
            if case .renderer(let renderer) = job.content {
                body = ([renderer.title, renderer.author] + renderer.formatters.map(\.text)).compactMap { $0 }.joined(separator: "\n")
            } else {
                body = ""
            }
            recipients = ""
            jobName = job.info.jobName
        }
    }

    var values: [any SQLiteBindable] { [subject, body, recipients, jobName] }
}
