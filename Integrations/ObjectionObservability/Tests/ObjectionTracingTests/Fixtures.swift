import Objection

/// A module built from a closure, so each test declares exactly the bindings it needs.
struct Fixtures: Module {
    let body: @Sendable (Binder) -> Void

    init(_ body: @escaping @Sendable (Binder) -> Void) {
        self.body = body
    }

    func configure(_ binder: Binder) { body(binder) }
}

/// One of twenty eager singletons; `N` tells them apart.
final class Node<N>: Sendable {}

enum Tag0 {}
enum Tag1 {}
enum Tag2 {}
enum Tag3 {}
enum Tag4 {}
enum Tag5 {}
enum Tag6 {}
enum Tag7 {}
enum Tag8 {}
enum Tag9 {}

/// Twenty eager singletons: ten independent ones that suspend, and a chain of ten in which each
/// needs the one before it, so that a startup builds some in tasks of their own below others.
struct TwentySingletons: Module {
    func configure(_ binder: Binder) {
        bindLeaf(Tag0.self, binder)
        bindLeaf(Tag1.self, binder)
        bindLeaf(Tag2.self, binder)
        bindLeaf(Tag3.self, binder)
        bindLeaf(Tag4.self, binder)
        bindLeaf(Tag5.self, binder)
        bindLeaf(Tag6.self, binder)
        bindLeaf(Tag7.self, binder)
        bindLeaf(Tag8.self, binder)
        bindLeaf(Tag9.self, binder)
        binder.bind(Chain0.self).to { _ in
            await Task.yield()
            return Chain0()
        }.asEagerSingleton()
        bindLink(Chain1.self, after: Chain0.self, binder)
        bindLink(Chain2.self, after: Chain1.self, binder)
        bindLink(Chain3.self, after: Chain2.self, binder)
        bindLink(Chain4.self, after: Chain3.self, binder)
        bindLink(Chain5.self, after: Chain4.self, binder)
        bindLink(Node6.self, after: Chain5.self, binder)
        bindLink(Node7.self, after: Node6.self, binder)
        bindLink(Chain8.self, after: Node7.self, binder)
        bindLink(Chain9.self, after: Chain8.self, binder)
    }

    private func bindLeaf<N>(_ tag: N.Type, _ binder: Binder) {
        binder.bind(Node<N>.self).to { _ in
            await Task.yield()
            return Node<N>()
        }.asEagerSingleton()
    }

    private func bindLink<T: Link, Before: Sendable>(_ type: T.Type, after: Before.Type, _ binder: Binder) {
        binder.bind(T.self).to { resolver in
            _ = try await resolver.get(Before.self)
            return T()
        }.asEagerSingleton()
    }
}

protocol Link: Sendable { init() }
final class Chain0: Link {}
final class Chain1: Link {}
final class Chain2: Link {}
final class Chain3: Link {}
final class Chain4: Link {}
final class Chain5: Link {}
final class Node6: Link {}
final class Node7: Link {}
final class Chain8: Link {}
final class Chain9: Link {}
