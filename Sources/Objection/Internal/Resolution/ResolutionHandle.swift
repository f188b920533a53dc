/// A value the injector provides for every bound type without a binding of its own:
/// ``Factory`` and ``Lazy`` (and the untyped ``ObjectFactory``, provided for every key).
protocol ResolutionHandle: Sendable {
    /// The type the handle resolves.
    static var target: any Any.Type { get }
    static func make(injector: InjectorActor, name: String?) -> Self
}
