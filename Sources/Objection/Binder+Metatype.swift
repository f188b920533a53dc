extension Binder {
    /// Binds a protocol of static requirements to a type that implements them (Objection's
    /// `bindMetaClass:toProtocol:`): resolving the existential metatype returns `type`.
    ///
    /// ```swift
    /// protocol VehicleFactory: Sendable { static func make(model: String) -> any Vehicle }
    /// struct CarFactory: VehicleFactory { static func make(model: String) -> any Vehicle { … } }
    ///
    /// binder.bindMetatype((any VehicleFactory.Type).self, to: CarFactory.self)
    /// let factory = try await injector.get((any VehicleFactory.Type).self)
    /// let car = factory.make(model: "Passat")
    /// ```
    ///
    /// The protocol refines `Sendable` because a bound value must be `Sendable`, and in Swift 6 an
    /// existential metatype such as `any VehicleFactory.Type` is only `Sendable` when its protocol
    /// is (`SendableMetatype`, which `Sendable` implies, is enough).
    ///
    /// It is an instance binding whose value is the metatype, so it is never built or disposed.
    ///
    /// - Parameters:
    ///   - metatype: The existential metatype callers ask for, such as `(any VehicleFactory.Type).self`.
    ///   - type: The implementing type, as a value of that metatype.
    ///   - name: An optional qualifier, as for ``bind(_:named:fileID:line:)``.
    ///   - fileID: Captured so configuration errors can point at this line.
    ///   - line: Captured so configuration errors can point at this line.
    public func bindMetatype<Metatype: Sendable>(
        _ metatype: Metatype.Type,
        to type: Metatype,
        named name: String? = nil,
        fileID: String = #fileID,
        line: Int = #line
    ) {
        bind(metatype, named: name, fileID: fileID, line: line).toInstance(type)
    }
}
