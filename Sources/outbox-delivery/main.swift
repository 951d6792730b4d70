import Foundation
import OutboxCLI
import OutboxDelivery

// The delivery half of outbox: the same commands, with the sinks and the print engine loaded.
// `outbox` hands commands that need them (worker, status, print, render, printers, …) over here.
DeliveryProgram.install(SinkServices())
exit(OutboxCommandLine.main())
