@testable import Objection

/// A request in flight: a task inside a request scope opened on an injector, held there until
/// ``finish()``, which lets it run `afterRelease` in its scope and returns what that returns.
/// Deterministic: ``open(on:afterRelease:)`` returns once the task is inside its scope.
///
/// ```swift
/// let request = await HeldRequest.open(on: root) { try await $0.get(Pool.self).isOpen }
/// let shutdown = Task { await root.shutdown(within: nil) }
/// #expect(try await request.finish())
/// ```
struct HeldRequest<Value: Sendable>: Sendable {
    private let task: Task<Value, any Error>
    private let release: Gate

    /// Opens the request on `injector` and returns once it is inside its scope.
    static func open(
        on injector: InjectorActor,
        afterRelease: @escaping @Sendable (InjectorActor) async throws -> Value
    ) async -> HeldRequest {
        let inside = Gate()
        let release = Gate()
        let task = Task {
            try await injector.withScope(values: { _ in }) { scope in
                inside.open()
                await release.wait()
                return try await afterRelease(scope)
            }
        }
        await inside.wait()
        return HeldRequest(task: task, release: release)
    }

    /// Lets the request go on, and waits for it to end.
    func finish() async throws -> Value {
        release.open()
        return try await task.value
    }

    /// Starts `stop` (a shutdown or a drain of `injector`) while the request is held, lets the
    /// request go on once `injector` is no longer running, and returns what each returned.
    func finish(
        whileStopping injector: InjectorActor,
        _ stop: @escaping @Sendable () async -> InjectionError?
    ) async throws -> (value: Value, stopped: InjectionError?) {
        let stopping = Task { await stop() }
        await waitUntil { injector.phase != .running }
        let value = try await finish()
        return (value, await stopping.value)
    }
}

extension HeldRequest where Value == Void {
    /// Opens a request that does nothing more once released.
    static func open(on injector: InjectorActor) async -> HeldRequest<Void> {
        await open(on: injector) { _ in }
    }
}
