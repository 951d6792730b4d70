import Foundation
import OutboxCLI

exit(OutboxCommandLine.main())
