import GRPCCore
import Logging
import LoggingTestSupport
import NotesAPI
import Objection
import ObjectionGRPC
import Testing

@testable import Notes

/// An injection error in an RPC — a key nobody bound, a provider that throws — is answered with
/// the opaque `internalError`, which names no type and carries no value; the server logs it with
/// the request id, by type, also without the value.
@Suite("Injection errors", .timeLimit(.minutes(2)))
struct InjectionErrorTests {
    /// A value bound in the injector, which must never reach a client or the log.
    struct APIKey: Sendable {
        static let secret = "sk-live-0123456789"
        let value: String
    }

    /// Never bound.
    struct AuditTrail: Sendable {}

    /// A provider's error that carries a bound value.
    struct KeyRejected: Error, CustomStringConvertible {
        let key: String
        var description: String { "key \(key) rejected" }
    }

    enum Failure: String, CaseIterable, Sendable {
        case unboundKey, providerError

        /// Overrides the store binding with one that fails the way the case says.
        var module: any Module {
            ClosureModule { binder in
                binder.bind(APIKey.self).toInstance(APIKey(value: APIKey.secret))
                switch self {
                case .unboundKey:
                    binder.bind((any NoteStore).self).to { resolver in
                        _ = try await resolver.get(AuditTrail.self)
                        return try await resolver.get(PostgresNoteStore.self)
                    }
                case .providerError:
                    binder.bind((any NoteStore).self).to { resolver in
                        throw KeyRejected(key: try await resolver.get(APIKey.self).value)
                    }
                }
            }
        }

        /// What the log names the failure by.
        var loggedName: String {
            switch self {
            case .unboundKey: "AuditTrail"
            case .providerError: "KeyRejected"
            }
        }
    }

    @Test(
        "Answered RPCError(.internalError, \"Internal error\"), logged by type with the request id",
        arguments: Failure.allCases)
    func opaqueInternalError(failure: Failure) async throws {
        try await TestServer.with(modules: [failure.module]) { server in
            let error = await #expect(throws: RPCError.self) {
                try await server.notes.addNote(NewNote(text: "never stored"), metadata: ["x-request-id": "failing-1"])
            }
            #expect(error?.code == .internalError)
            #expect(error?.message == ObjectionScopeInterceptor.internalErrorMessage)
            #expect(error?.message == "Internal error")
            #expect(error.map { !String(reflecting: $0).contains(APIKey.secret) } == true)
            #expect(try await server.committedNotes(text: "never stored") == 0)

            let logged = try #require(server.events.entries(withMessage: "RPC failed; answered internalError").first)
            #expect(logged.metadata["request-id"] == "failing-1")
            #expect(logged.metadata["error"]?.description.contains(failure.loggedName) == true)
            #expect(!server.events.all.contains { "\($0)".contains(APIKey.secret) })
        }
    }
}
