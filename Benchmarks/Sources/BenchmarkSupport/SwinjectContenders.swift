// swift-format-ignore-file: NeverForceUnwrap
// Swinject resolves to optionals; force-unwrapping them is how its users write it, and what is
// measured here.

@preconcurrency import Swinject

/// The same graphs in Swinject, the incumbent. Swinject's `Container` predates `Sendable`; the
/// benchmark shares it across tasks only through `synchronize()`, wrapped in ``Shared``.
public enum SwinjectGraphs {
    public static func transient() -> Container {
        let container = Container()
        container.register(D.self) { _ in D() }
        container.register(E.self) { _ in E() }
        container.register(F.self) { _ in F() }
        container.register(G.self) { _ in G() }
        container.register(A.self) { r in A(d: r.resolve(D.self)!) }
        container.register(B.self) { r in B(e: r.resolve(E.self)!, f: r.resolve(F.self)!) }
        container.register(C.self) { r in C(g: r.resolve(G.self)!) }
        container.register(Service.self) { r in
            Service(a: r.resolve(A.self)!, b: r.resolve(B.self)!, c: r.resolve(C.self)!)
        }
        container.register(Engine.self) { _ in Engine() }.inObjectScope(.container)
        return container
    }

    public static func deep() -> Container {
        let container = Container()
        for child in 0..<DeepGraph.width {
            let name = DeepGraph.name("", child)
            for leaf in 0..<DeepGraph.width {
                container.register(Node.self, name: DeepGraph.name(name, leaf)) { _ in Node(children: []) }
            }
            container.register(Node.self, name: name) { r in
                Node(children: (0..<DeepGraph.width).map { r.resolve(Node.self, name: DeepGraph.name(name, $0))! })
            }
        }
        container.register(Node.self, name: "") { r in
            Node(children: (0..<DeepGraph.width).map { r.resolve(Node.self, name: DeepGraph.name("", $0))! })
        }
        return container
    }

    /// The root of the per-request case: singletons and transients.
    public static func requestRoot() -> Container {
        let container = Container()
        container.register(Database.self) { _ in Database() }.inObjectScope(.container)
        container.register(Cache.self) { _ in Cache() }.inObjectScope(.container)
        container.register(Metrics.self) { _ in Metrics() }.inObjectScope(.container)
        container.register(Settings.self) { _ in Settings() }.inObjectScope(.container)
        container.register(Clock.self) { _ in Clock() }.inObjectScope(.container)
        container.register(Validator.self) { _ in Validator() }
        container.register(Serializer.self) { r in Serializer(clock: r.resolve(Clock.self)!) }
        container.register(Handler.self) { r in
            Handler(
                context: r.resolve(RequestContext.self)!,
                logger: r.resolve(RequestLogger.self)!,
                work: r.resolve(UnitOfWork.self)!,
                cache: r.resolve(Cache.self)!,
                metrics: r.resolve(Metrics.self)!,
                settings: r.resolve(Settings.self)!,
                validator: r.resolve(Validator.self)!,
                serializer: r.resolve(Serializer.self)!
            )
        }
        return container
    }

    /// One request: a child container holding the request's scoped objects, the handler resolved
    /// from it, the unit of work committed at the end.
    public static func serveRequest(root: Container) -> Handler? {
        serve(in: root) { $0.register(RequestContext.self) { _ in RequestContext() }.inObjectScope(.container) }
    }

    /// One request whose context is a value the request brings, registered in its child container.
    public static func serveRequest(root: Container, context: RequestContext) -> Handler? {
        serve(in: root) { $0.register(RequestContext.self) { _ in context } }
    }

    /// A request's child container: its context as `registerContext` says, its logger and unit of
    /// work; the handler resolved from it and the unit of work committed.
    private static func serve(in root: Container, registerContext: (Container) -> Void) -> Handler? {
        let request = Container(parent: root)
        registerContext(request)
        request.register(RequestLogger.self) { r in RequestLogger(context: r.resolve(RequestContext.self)!) }
            .inObjectScope(.container)
        request.register(UnitOfWork.self) { r in UnitOfWork(database: r.resolve(Database.self)!) }
            .inObjectScope(.container)
        let handler = request.resolve(Handler.self)
        handler?.work.commit()
        return handler
    }

    public static func sized(_ count: Int) -> Container {
        let container = Container()
        for index in 0..<count {
            container.register(Int.self, name: String(index)) { _ in index }
        }
        return container
    }
}

/// Shares a value that is not `Sendable` across the benchmark's tasks. Only used for Swinject
/// resolvers returned by `synchronize()`, which are thread-safe but not annotated.
public final class Shared<Value>: @unchecked Sendable {
    public let value: Value
    public init(_ value: Value) { self.value = value }
}
