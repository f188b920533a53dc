import GRPCCore
import NotesAPI

/// Records each `Note` message of a response in a ``ProbeLog`` as it is handed to grpc-swift to
/// write, among what the probed stores record. Installed inside the scope interceptor.
struct WriteRecorder: ServerInterceptor {
    let log: ProbeLog

    func intercept<Input: Sendable, Output: Sendable>(
        request: StreamingServerRequest<Input>,
        context: ServerContext,
        next: @Sendable (StreamingServerRequest<Input>, ServerContext) async throws -> StreamingServerResponse<Output>
    ) async throws -> StreamingServerResponse<Output> {
        var response = try await next(request, context)
        if case .success(var contents) = response.accepted {
            let producer = contents.producer
            contents.producer = { [log] writer in
                try await producer(RPCWriter(wrapping: Recording(base: writer, log: log)))
            }
            response.accepted = .success(contents)
        }
        return response
    }

    /// A writer that records each note, then writes it: recorded before the client can have it,
    /// so that a test reading the log once it has the answer finds the record there.
    struct Recording<Element: Sendable>: RPCWriterProtocol {
        let base: RPCWriter<Element>
        let log: ProbeLog

        func write(_ element: Element) async throws {
            if let note = element as? Note { log.record(.wrote(note: note.id)) }
            try await base.write(element)
        }

        func write(contentsOf elements: some Sequence<Element>) async throws {
            for element in elements { try await write(element) }
        }
    }
}
