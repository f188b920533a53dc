/// Collects a module's bindings while the injector is being created.
///
/// You never create a binder; an injector passes one to each module's ``Module/configure(_:)``.
/// Every binding starts with ``bind(_:named:fileID:line:)`` and is completed by one of the
/// target methods of ``BindingBuilder``:
///
/// ```swift
/// func configure(_ binder: Binder) {
///     binder.bind(Config.self).toInstance(Config(dsn: "postgres://localhost/app"))
///     binder.bind(UserRepository.self).to(UserRepository.init)
///     binder.bind(Headlight.self, named: "left").to { _ in Headlight(side: .left) }
/// }
/// ```
///
/// A binder is only valid during `configure(_:)`; it is not `Sendable` and must not escape.
public final class Binder {
    var declarations: [BindingDeclaration] = []
    var decorators: [Decorator] = []

    init() {}

    /// Starts a binding for `type`, optionally qualified by `name`.
    ///
    /// - Parameters:
    ///   - type: The type callers will ask for; any `Sendable` type, including existential
    ///     protocol types such as `(any Database).self`.
    ///   - name: A qualifier that makes this binding a separate key from the unnamed one.
    ///   - fileID: Captured so configuration errors can point at this line.
    ///   - line: Captured so configuration errors can point at this line.
    /// - Returns: A builder on which to choose what the key resolves to.
    public func bind<T: Sendable>(
        _ type: T.Type,
        named name: String? = nil,
        fileID: String = #fileID,
        line: Int = #line
    ) -> BindingBuilder<T> {
        declarations.append(
            BindingDeclaration(
                key: BindingKey(type, named: name),
                location: InjectionError.SourceLocation(fileID: fileID, line: line)
            )
        )
        return BindingBuilder(binder: self, index: declarations.count - 1)
    }
}

@available(*, unavailable, message: "A Binder is only valid inside Module.configure(_:)")
extension Binder: Sendable {}
