import Testing

@testable import Objection

/// Each scope's `Lifetime`: what it keeps and how it answers the questions resolution asks of it,
/// decided once when the table is built.
@Suite("A binding's lifetime, made from its scope")
struct LifetimeTests {
    /// What one scope's lifetime is expected to answer.
    struct Expected: Sendable, CustomTestStringConvertible {
        let scope: Scope
        let keepsACell: Bool
        let keepsGenerations: Bool
        let isPerRequest: Bool
        let keepsACustomCache: Bool
        let isCached: Bool
        let isInjectorWide: Bool
        let staysBuilt: Bool

        var testDescription: String { scope.description }
    }

    static let expectations: [Expected] = [
        Expected(
            scope: .transient, keepsACell: false, keepsGenerations: false, isPerRequest: false,
            keepsACustomCache: false, isCached: false, isInjectorWide: false, staysBuilt: false),
        Expected(
            scope: .singleton, keepsACell: true, keepsGenerations: false, isPerRequest: false,
            keepsACustomCache: false, isCached: true, isInjectorWide: true, staysBuilt: true),
        Expected(
            scope: .refreshable, keepsACell: true, keepsGenerations: true, isPerRequest: false,
            keepsACustomCache: false, isCached: true, isInjectorWide: true, staysBuilt: false),
        Expected(
            scope: .scoped, keepsACell: false, keepsGenerations: false, isPerRequest: true,
            keepsACustomCache: false, isCached: true, isInjectorWide: false, staysBuilt: false),
        Expected(
            scope: .custom("per-tenant") { WeakReferenceCache() }, keepsACell: false, keepsGenerations: false,
            isPerRequest: false, keepsACustomCache: true, isCached: true, isInjectorWide: false, staysBuilt: false),
        Expected(
            scope: .weak, keepsACell: false, keepsGenerations: false, isPerRequest: false,
            keepsACustomCache: true, isCached: true, isInjectorWide: false, staysBuilt: false),
    ]

    @Test("answers for its scope", arguments: expectations)
    func answers(_ expected: Expected) {
        let lifetime = Lifetime(expected.scope, scopedIndex: 3)
        #expect(lifetime.kind == expected.scope.kind)
        #expect(lifetime.isBuiltAtStartupInProduction == expected.staysBuilt)
        #expect((lifetime.cell != nil) == expected.keepsACell)
        #expect((lifetime.generations != nil) == expected.keepsGenerations)
        #expect(lifetime.isPerRequest == expected.isPerRequest)
        #expect((lifetime.customCache != nil) == expected.keepsACustomCache)
        #expect(lifetime.isCached == expected.isCached)
        #expect(lifetime.isInjectorWide == expected.isInjectorWide)
        #expect(lifetime.staysBuilt == expected.staysBuilt)
        #expect(lifetime.changesOnRefresh == expected.keepsGenerations)
        #expect(lifetime.scopedIndex == (expected.isPerRequest ? 3 : nil))
    }

    @Test("each binding gets a cell and a cache of its own")
    func ownCells() {
        let first = Lifetime(.singleton, scopedIndex: nil)
        let second = Lifetime(.singleton, scopedIndex: nil)
        #expect(first.cell !== second.cell)
        let firstCache = Lifetime(.weak, scopedIndex: nil).customCache
        let secondCache = Lifetime(.weak, scopedIndex: nil).customCache
        #expect(firstCache !== secondCache)
    }
}
