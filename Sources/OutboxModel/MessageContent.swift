/// The channel-specific content of a message.
public enum MessageContent: Sendable, Equatable {
    case mail(MailContent)
    case sms(SMSContent)
    case print(PrintJob)

    public var channel: Channel {
        switch self {
        case .mail: .mail
        case .sms: .sms
        case .print: .print
        }
    }
}
