import Foundation
import OutboxEngine
import OutboxModel
@testable import OutboxSMS
import OutboxTestSupport
import Synchronization
import Testing

/// Against a real Kannel (bearerbox + smsbox + fakesmsc) on loopback.
@Suite struct KannelSinkTests {
    func makeSink(_ gateway: KannelGateway, dlrListen: String? = nil, password: String? = nil) throws -> KannelSink {
        var config = KannelConfig(url: gateway.sendsmsURL)
        config.username = gateway.username
        config.password = SecretReference(environmentVariable: "TEST_KANNEL_PASSWORD")
        config.dlrListen = dlrListen
        return try KannelSink(config: config, environment: ["TEST_KANNEL_PASSWORD": password ?? gateway.password],
                              timeoutSeconds: 10)
    }

    @Test func gsm7AndJapaneseUCS2ArriveIntact() throws {
        let gateway = try KannelGateway()
        defer { gateway.tearDown() }
        let sink = try makeSink(gateway)
        defer { sink.shutdown() }
        let gsm = "Grüße {GSM} [7] ~bit~ | 5€ ^_^ \\o/ @home"
        let japanese = "日本語のテキストです。こんにちは 😀"
        let first = try sink.deliver(smsDelivery(to: "+4915112345678", body: gsm))
        let second = try sink.deliver(smsDelivery(to: "+819012345678", from: "Outbox", body: japanese))
        #expect(first.outcome == .sent)
        #expect(first.code == "http 202 kannel 0")
        #expect(second.outcome == .sent)
        #expect(waitUntil(10) { gateway.received.count >= 2 }, "fakesmsc got: \(gateway.received)")
        let received = gateway.received
        #expect(received.first { $0.to == "+4915112345678" } ==
                KannelGateway.ReceivedMessage(from: gateway.globalSender, to: "+4915112345678", coding: "text", text: gsm))
        #expect(received.first { $0.to == "+819012345678" } ==
                KannelGateway.ReceivedMessage(from: "Outbox", to: "+819012345678", coding: "ucs-2", text: japanese))
    }

    @Test func aDeliveryReportFlowsBackThroughTheListener() throws {
        let gateway = try KannelGateway()
        defer { gateway.tearDown() }
        let sink = try makeSink(gateway, dlrListen: "127.0.0.1:0")
        defer { sink.shutdown() }
        let reports = Mutex<[DeliveryReport]>([])
        try sink.startReceivingReports { report in reports.withLock { $0.append(report) } }
        let delivery = smsDelivery(body: "report back, please")
        let receipt = try sink.deliver(delivery)
        #expect(receipt.outcome == .submitted)
        #expect(waitUntil(10) { reports.withLock { !$0.isEmpty } })
        let report = try #require(reports.withLock { $0.first })
        #expect(report.uid == delivery.uid)
        #expect(report.outcome == .delivered)
        #expect(report.code == "kannel dlr 1")
    }

    @Test func kannelDownIsOfflineAndDrainsWhenItReturns() throws {
        let gateway = try KannelGateway()
        defer { gateway.tearDown() }
        let sink = try makeSink(gateway)
        defer { sink.shutdown() }
        gateway.stop()
        do {
            _ = try sink.deliver(smsDelivery(body: "while down"))
            Issue.record("expected offline")
        } catch {
            #expect(error.errorClass == .offline)
            #expect(error.code == "curl 7")
            #expect(!error.detail.contains(gateway.password))
        }
        guard case .unreachable(let probeError) = sink.probe() else { Issue.record("probe should fail"); return }
        #expect(probeError.errorClass == .offline)

        try gateway.start()
        #expect(sink.probe() == .reachable(detail: sink.destinationDescription))
        let receipt = try sink.deliver(smsDelivery(body: "after the outage"))
        #expect(receipt.outcome == .sent)
        #expect(waitUntil(10) { gateway.received.contains { $0.text == "after the outage" } })
    }

    @Test func aWrongPasswordIsPermanent() throws {
        let gateway = try KannelGateway()
        defer { gateway.tearDown() }
        let sink = try makeSink(gateway, password: "wrong")
        defer { sink.shutdown() }
        do {
            _ = try sink.deliver(smsDelivery(body: "x"))
            Issue.record("expected a refusal")
        } catch {
            #expect(error.errorClass == .permanent)
            #expect(error.code?.hasPrefix("http 403") == true)
            #expect(!error.detail.contains("wrong"))
        }
    }
}

/// The sendsms answer and dlr-url mapping, without a gateway.
@Suite struct KannelMappingTests {
    func response(_ status: Int, _ body: String, headers: [String: String] = [:]) -> HTTPResponse {
        HTTPResponse(status: status, headers: headers, body: Data(body.utf8))
    }

    @Test func acceptedAndQueuedAnswers() throws {
        #expect(try KannelSink.receipt(for: response(202, "0: Accepted for delivery"), wantsReports: false).outcome == .sent)
        #expect(try KannelSink.receipt(for: response(202, "0: Accepted for delivery"), wantsReports: true).outcome == .submitted)
        let queued = try KannelSink.receipt(for: response(202, "3: Queued for later delivery"), wantsReports: true)
        #expect(queued.outcome == .submitted)
        #expect(queued.code == "http 202 kannel 3")
    }

    @Test(arguments: [(503, ErrorClass.transient), (500, .transient), (400, .permanent), (403, .permanent), (404, .permanent)])
    func refusals(status: Int, expected: ErrorClass) {
        do {
            _ = try KannelSink.receipt(for: response(status, "x", headers: ["retry-after": "12"]), wantsReports: false)
            Issue.record("expected an error")
        } catch {
            #expect(error.errorClass == expected)
            if expected == .transient { #expect(error.retryAfterSeconds == 12) }
        }
    }

    @Test func reportTypes() {
        #expect(KannelSink.report(from: ["uid": "u1", "type": "1", "answer": ""])?.outcome == .delivered)
        #expect(KannelSink.report(from: ["uid": "u1", "type": "2"])?.outcome == .undelivered)
        #expect(KannelSink.report(from: ["uid": "u1", "type": "16"])?.outcome == .undelivered)
        #expect(KannelSink.report(from: ["uid": "u1", "type": "8"]) == nil)
        #expect(KannelSink.report(from: ["uid": "u1", "type": "4"]) == nil)
        #expect(KannelSink.report(from: ["type": "1"]) == nil)
    }

    @Test func badDLRListenIsAConfigError() {
        var config = KannelConfig(url: "http://127.0.0.1:13013/cgi-bin/sendsms")
        config.dlrListen = "8090"
        #expect(throws: OutboxError.self) { try KannelSink(config: config) }
    }
}
