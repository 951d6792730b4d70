/// sysexits(3) codes, the only exit statuses `outbox` uses.
public enum ExitCode: Int32, Sendable {
    case ok = 0
    case usage = 64          // EX_USAGE: bad flags or arguments
    case dataError = 65      // EX_DATAERR: invalid address, number, document type
    case noInput = 66        // EX_NOINPUT: missing input file
    case unavailable = 69    // EX_UNAVAILABLE: sink unavailable
    case software = 70       // EX_SOFTWARE: internal error
    case cantCreate = 73     // EX_CANTCREAT: can't create output
    case ioError = 74        // EX_IOERR
    case tempFailure = 75    // EX_TEMPFAIL
    case config = 78         // EX_CONFIG
}
