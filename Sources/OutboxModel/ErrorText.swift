import FoundationEssentials
import Glibc

/// Error text worded as full Foundation's `NSError.localizedDescription` words it, for the file
/// errors `FileManager` and `SystemFile` throw — so messages stay the same without linking full
/// Foundation into the front end.
public enum ErrorText {
    public static func describe(_ error: any Error) -> String {
        if let error = error as? CocoaError {
            if let text = error.userInfo["NSLocalizedDescription"] as? String { return text }
            if let reason = reasons[error.code.rawValue] { return "The operation could not be completed. \(reason)" }
            return "The operation could not be completed. (NSCocoaErrorDomain error \(error.code.rawValue).)"
        }
        if let error = error as? POSIXError {
            return "The operation could not be completed. \(String(cString: strerror(error.code.rawValue)))"
        }
        return "The operation could not be completed. (\(String(reflecting: type(of: error))) error.)"
    }

    /// Foundation's failure reasons for the Cocoa file error codes.
    private static let reasons: [Int: String] = [
        4: "The file doesn’t exist.", 255: "The file couldn’t be locked.", 257: "You don’t have permission.",
        258: "The file name is invalid.", 259: "The file isn’t in the correct format.", 260: "The file doesn’t exist.",
        261: "The specified text encoding isn’t applicable.", 262: "The specified URL type isn’t supported.",
        263: "The item is too large.", 264: "The text encoding of the contents couldn’t be determined.",
        513: "You don’t have permission.", 514: "The file name is invalid.", 516: "A file with the same name already exists.",
        517: "The specified text encoding isn’t applicable.", 518: "The specified URL type isn’t supported.",
        640: "There isn’t enough space.", 642: "The volume is read only.",
    ]
}
