import Glibc
import OutboxCLI

exit(OutboxCommandLine.main())
