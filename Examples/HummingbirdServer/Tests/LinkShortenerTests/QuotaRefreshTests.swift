import Configuration
import Foundation
import LinkShortener
import Objection
import SystemPackage
import TestSupport
import Testing

/// `link.quota` changed in a reloading settings file while the server runs, over real sockets
/// against PostgreSQL: new requests get the new quota, a request in flight keeps the old one, and
/// the old `LinkQuota` is disposed once, after that request.
@Suite("Refreshing the link quota without a restart", .timeLimit(.minutes(1)))
struct QuotaRefreshTests {
    /// A settings directory as the kubelet mounts a ConfigMap: `settings.json` a link into a
    /// version's folder, replaced in one rename.
    struct MountedSettings {
        let directory: URL

        init(quotas: [Int]) throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("links-\(UUID().uuidString)")
            for (version, quota) in quotas.enumerated() {
                let folder = directory.appendingPathComponent("v\(version)")
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                try #"{"link": {"quota": \#(quota)}}"#
                    .write(to: folder.appendingPathComponent("settings.json"), atomically: true, encoding: .utf8)
            }
            try FileManager.default.createSymbolicLink(atPath: file.path, withDestinationPath: "v0/settings.json")
        }

        var file: URL { directory.appendingPathComponent("settings.json") }

        func switchTo(version: Int) throws {
            let next = directory.appendingPathComponent("settings.json.next")
            try FileManager.default.createSymbolicLink(
                atPath: next.path, withDestinationPath: "v\(version)/settings.json")
            guard rename(next.path, file.path) == 0 else { throw CocoaError(.fileWriteUnknown) }
        }
    }

    @Test("a new quota for new requests; the slow request in flight keeps the old one, disposed once after it")
    func quotaChangesWithoutRestart() async throws {
        let settings = try MountedSettings(quotas: [100, 1])
        defer { try? FileManager.default.removeItem(at: settings.directory) }
        let file = try await ReloadingFileProvider<JSONSnapshot>(
            filePath: FilePath(settings.file.path), pollInterval: .milliseconds(20))
        try await TestServer.with(refreshing: (ConfigReader(provider: file), file)) { server in
            #expect(try await server.injector.get(LinkQuota.self).limit == 100)
            // A slow client: its request reads the quota, then waits for its body.
            let bodyHeld = Gate()
            let slow = Task {
                try await HTTPTestClient.send(
                    .post, "/links", port: server.port, headers: [("Authorization", "Bearer slow")],
                    body: try CreateLinkRequest(url: "https://slow.example/1").json(),
                    holdingBody: { await bodyHeld.pass() })
            }
            await waitUntil { (try? await server.injector.get(LinkQuota.self).created(by: "slow")) == 1 }

            try settings.switchTo(version: 1)
            await waitUntil { (try? await server.injector.get(LinkQuota.self).limit) == 1 }
            let admitted = try await server.send(
                .post, "/links", user: "alice", body: try CreateLinkRequest(url: "https://new.example/1").json())
            #expect(admitted.status == 201)
            #expect(admitted.header("X-Link-Quota") == "1")
            let refused = try await server.send(
                .post, "/links", user: "alice", body: try CreateLinkRequest(url: "https://new.example/2").json())
            #expect(refused.status == 429)
            let history = try await server.injector.get(QuotaHistory.self)
            #expect(!history.events.contains(.disposed("LinkQuota(100)")))

            bodyHeld.open()
            let reply = try await slow.value
            #expect(reply.status == 201)
            #expect(reply.header("X-Link-Quota") == "100")
            await waitUntil { history.events.contains(.disposed("LinkQuota(100)")) }
            #expect(history.events.filter { $0 == .disposed("LinkQuota(100)") }.count == 1)
            #expect(history.events.prefix(2) == [.built("LinkQuota(100)"), .built("LinkQuota(1)")])
            #expect(try await server.committedLinks(urlPrefix: "https://slow.example/") == 1)
            #expect(try await server.committedLinks(urlPrefix: "https://new.example/") == 1)
        }
    }

    /// Polls `condition`, yielding between reads: the server's work happens on other tasks.
    private func waitUntil(_ condition: () async -> Bool) async {
        while await !condition() {
            if Task.isCancelled { return }
            try? await Task.sleep(for: .milliseconds(5))
        }
    }
}
