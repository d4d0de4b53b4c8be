/**
 * Reads the public surface of the package with the TypeScript compiler: for each
 * entry point in package.json `exports`, the names it exports, and every type
 * declared under src/ that its public signatures mention (parameters, return
 * types, properties, heritage, alias bodies, generic constraints; recursively).
 * A base interface that its own module does not export counts as part of the derived
 * type (its members are walked through it), not as a type the user must name.
 * Used by `test/architecture/public-types.test.ts` and `scripts/count-exports.ts`.
 * @module
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const PACKAGE_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SOURCE_ROOT = join(PACKAGE_ROOT, 'src') + '/';

export interface EntryPoint {
  /** The `exports` key: `.`, `./mcp`, … */
  subpath: string;
  /** Absolute path of the source file it is built from. */
  file: string;
}

/** A named type a public signature uses, and which export led to it. */
export interface ReferencedType {
  name: string;
  /** `src/…` path of its declaration. */
  declaredIn: string;
  /** The export whose signature (directly or through other types) mentions it. */
  via: string;
  symbol: ts.Symbol;
}

export interface EntrySurface {
  entry: EntryPoint;
  /** Exported names, sorted. */
  names: string[];
  /** Exported names usable in a type position (interfaces, aliases, classes, enums), with their generic arity. */
  typeNames: Array<{ name: string; typeParameters: number }>;
  /** The declarations the exports resolve to. */
  exportedSymbols: Set<ts.Symbol>;
  /** Every src/ type mentioned by a public signature, reached from this entry. */
  referenced: ReferencedType[];
}

export function readEntryPoints(): EntryPoint[] {
  const pkg = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { exports: Record<string, string | { import: string }> };
  return Object.entries(pkg.exports)
    .filter(([subpath]) => subpath !== './package.json')
    .map(([subpath, target]) => {
      const built = typeof target === 'string' ? target : target.import;
      return { subpath, file: join(PACKAGE_ROOT, built.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts')) };
    });
}

export function createSurfaceProgram(rootNames: string[], host?: ts.CompilerHost): ts.Program {
  const configPath = join(PACKAGE_ROOT, 'tsconfig.json');
  const config = ts.getParsedCommandLineOfConfigFile(configPath, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  if (config === undefined) throw new Error(`Cannot read ${configPath}`);
  return ts.createProgram({ rootNames, options: { ...config.options, noEmit: true }, ...(host === undefined ? {} : { host }) });
}

const TYPE_DECLARATION = ts.SymbolFlags.Interface | ts.SymbolFlags.TypeAlias | ts.SymbolFlags.Class | ts.SymbolFlags.Enum;

function resolveAlias(checker: ts.TypeChecker, symbol: ts.Symbol): ts.Symbol {
  return symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
}

function sourceDeclarationPath(symbol: ts.Symbol): string | undefined {
  const file = symbol.declarations?.[0]?.getSourceFile().fileName;
  if (file === undefined || !resolve(file).startsWith(SOURCE_ROOT) || file.endsWith('.test.ts')) return undefined;
  return relative(PACKAGE_ROOT, file);
}

/** Private members, and members documented `@internal` (not part of the API even though TypeScript lets them be reached). */
function isHiddenMember(symbol: ts.Symbol): boolean {
  if (symbol.name.startsWith('#') || symbol.name.startsWith('__#')) return true;
  return (symbol.declarations ?? []).some((declaration) => {
    if (ts.isPrivateIdentifier((declaration as ts.NamedDeclaration).name ?? declaration)) return true;
    if (ts.getJSDocTags(declaration).some((tag) => tag.tagName.text === 'internal')) return true;
    return (ts.getCombinedModifierFlags(declaration) & ts.ModifierFlags.Private) !== 0;
  });
}

function isInternalSignature(signature: ts.Signature): boolean {
  const declaration = signature.getDeclaration() as ts.Declaration | undefined;
  if (declaration === undefined) return false;
  if ((ts.getCombinedModifierFlags(declaration) & ts.ModifierFlags.Private) !== 0) return true;
  return ts.getJSDocTags(declaration).some((tag) => tag.tagName.text === 'internal');
}

/** Walks the types reachable from one entry's exports and lists the src/ types among them. */
export function analyseEntry(program: ts.Program, entry: EntryPoint): EntrySurface {
  const checker = program.getTypeChecker();
  const sourceFile = program.getSourceFile(entry.file);
  if (sourceFile === undefined) throw new Error(`${entry.file} is not in the program`);
  const moduleSymbol = checker.getSymbolAtLocation(sourceFile);
  if (moduleSymbol === undefined) throw new Error(`${entry.file} is not a module`);

  const exports = checker.getExportsOfModule(moduleSymbol);
  const exportedSymbols = new Set<ts.Symbol>();
  const typeNames: EntrySurface['typeNames'] = [];
  for (const exported of exports) {
    const target = resolveAlias(checker, exported);
    exportedSymbols.add(target);
    if (target.flags & TYPE_DECLARATION) {
      const declaration = target.declarations?.find((node) => 'typeParameters' in node);
      const parameters = (declaration as { typeParameters?: ts.NodeArray<ts.TypeParameterDeclaration> } | undefined)?.typeParameters ?? [];
      typeNames.push({ name: exported.name, typeParameters: parameters.filter((parameter) => parameter.default === undefined).length });
    }
  }

  const referenced = new Map<ts.Symbol, ReferencedType>();
  const walkedSymbols = new Set<ts.Symbol>();
  const walkedTypes = new Set<ts.Type>();
  const pending: Array<{ symbol: ts.Symbol; via: string }> = [];

  function noteNamed(symbol: ts.Symbol, via: string): boolean {
    const target = resolveAlias(checker, symbol);
    const declaredIn = sourceDeclarationPath(target);
    if (declaredIn === undefined || !(target.flags & TYPE_DECLARATION)) return false;
    if (!referenced.has(target)) referenced.set(target, { name: target.name, declaredIn, via, symbol: target });
    pending.push({ symbol: target, via });
    return true;
  }

  /**
   * A base interface or class that its own module keeps unexported is an implementation
   * detail of the derived type: its members are checked through the derived type's
   * properties, so only its type arguments are walked here.
   */
  function walkBase(base: ts.Type, via: string): void {
    const symbol = base.getSymbol();
    const exportedFromModule = (symbol?.declarations ?? []).some((declaration) => (ts.getCombinedModifierFlags(declaration) & ts.ModifierFlags.Export) !== 0);
    if (symbol === undefined || exportedFromModule || sourceDeclarationPath(symbol) === undefined) walkType(base, via);
    else if ((base as ts.ObjectType).objectFlags & ts.ObjectFlags.Reference) {
      for (const argument of checker.getTypeArguments(base as ts.TypeReference)) walkType(argument, via);
    }
  }

  function walkSignature(signature: ts.Signature, via: string): void {
    for (const parameter of signature.getTypeParameters() ?? []) walkType(parameter, via);
    for (const parameter of signature.getParameters()) walkType(checker.getTypeOfSymbol(parameter), via);
    const thisParameter = signature.thisParameter;
    if (thisParameter !== undefined) walkType(checker.getTypeOfSymbol(thisParameter), via);
    walkType(signature.getReturnType(), via);
    const predicate = checker.getTypePredicateOfSignature(signature);
    if (predicate?.type !== undefined) walkType(predicate.type, via);
  }

  function walkStructure(type: ts.Type, via: string): void {
    for (const property of checker.getPropertiesOfType(type)) {
      if (isHiddenMember(property)) continue;
      walkType(checker.getTypeOfSymbol(property), via);
    }
    for (const signature of type.getCallSignatures()) if (!isInternalSignature(signature)) walkSignature(signature, via);
    for (const signature of type.getConstructSignatures()) if (!isInternalSignature(signature)) walkSignature(signature, via);
    for (const info of checker.getIndexInfosOfType(type)) {
      walkType(info.keyType, via);
      walkType(info.type, via);
    }
  }

  function walkType(type: ts.Type, via: string): void {
    if (walkedTypes.has(type)) return;
    walkedTypes.add(type);
    if (type.aliasSymbol !== undefined) {
      for (const argument of type.aliasTypeArguments ?? []) walkType(argument, via);
      if (noteNamed(type.aliasSymbol, via)) return;
    }
    if (type.isUnionOrIntersection()) {
      for (const member of type.types) walkType(member, via);
      return;
    }
    if (type.flags & ts.TypeFlags.TypeParameter) {
      const constraint = checker.getBaseConstraintOfType(type);
      if (constraint !== undefined && constraint !== type) walkType(constraint, via);
      return;
    }
    if (type.flags & (ts.TypeFlags.Index | ts.TypeFlags.IndexedAccess | ts.TypeFlags.Conditional)) {
      const constraint = checker.getBaseConstraintOfType(type);
      if (constraint !== undefined && constraint !== type) walkType(constraint, via);
      return;
    }
    if (!(type.flags & ts.TypeFlags.Object)) return;
    const objectType = type as ts.ObjectType;
    if (objectType.objectFlags & ts.ObjectFlags.Reference) {
      for (const argument of checker.getTypeArguments(type as ts.TypeReference)) walkType(argument, via);
    }
    const symbol = type.getSymbol();
    if (symbol !== undefined && symbol.flags & (ts.SymbolFlags.Class | ts.SymbolFlags.Interface | ts.SymbolFlags.Enum)) {
      // A named class/interface (or `typeof SomeClass`): from src/ it is walked from its own declaration; from a library it is opaque.
      noteNamed(symbol, via);
      return;
    }
    walkStructure(type, via);
  }

  function walkSymbol(symbol: ts.Symbol, via: string): void {
    if (walkedSymbols.has(symbol)) return;
    walkedSymbols.add(symbol);
    if (symbol.flags & ts.SymbolFlags.Class) {
      const instance = checker.getDeclaredTypeOfSymbol(symbol);
      walkStructure(instance, via);
      for (const base of checker.getBaseTypes(instance as ts.InterfaceType)) walkBase(base, via);
      for (const parameter of (instance as ts.InterfaceType).typeParameters ?? []) walkType(parameter, via);
      const declaration = symbol.valueDeclaration;
      if (declaration !== undefined) walkStructure(checker.getTypeOfSymbolAtLocation(symbol, declaration), via);
    } else if (symbol.flags & ts.SymbolFlags.Interface) {
      const declared = checker.getDeclaredTypeOfSymbol(symbol) as ts.InterfaceType;
      walkStructure(declared, via);
      for (const base of checker.getBaseTypes(declared)) walkBase(base, via);
      for (const parameter of declared.typeParameters ?? []) walkType(parameter, via);
    } else if (symbol.flags & ts.SymbolFlags.TypeAlias) {
      const declared = checker.getDeclaredTypeOfSymbol(symbol);
      for (const declaration of symbol.declarations ?? []) {
        if (!ts.isTypeAliasDeclaration(declaration)) continue;
        for (const parameter of declaration.typeParameters ?? []) walkType(checker.getTypeAtLocation(parameter), via);
      }
      // The alias's own symbol is already noted; walk its body.
      if (declared.isUnionOrIntersection()) for (const member of declared.types) walkType(member, via);
      else if (declared.aliasSymbol === symbol) {
        walkedTypes.add(declared);
        if (declared.flags & ts.TypeFlags.Object) {
          if ((declared as ts.ObjectType).objectFlags & ts.ObjectFlags.Reference) {
            for (const argument of checker.getTypeArguments(declared as ts.TypeReference)) walkType(argument, via);
          }
          const named = declared.getSymbol();
          if (named !== undefined && named.flags & (ts.SymbolFlags.Class | ts.SymbolFlags.Interface)) noteNamed(named, via);
          else walkStructure(declared, via);
        } else if (declared.flags & (ts.TypeFlags.Index | ts.TypeFlags.IndexedAccess | ts.TypeFlags.Conditional)) {
          const constraint = checker.getBaseConstraintOfType(declared);
          if (constraint !== undefined && constraint !== declared) walkType(constraint, via);
        }
      } else walkType(declared, via);
    } else if (symbol.flags & (ts.SymbolFlags.Function | ts.SymbolFlags.Variable)) {
      const declaration = symbol.valueDeclaration;
      if (declaration !== undefined) walkType(checker.getTypeOfSymbolAtLocation(symbol, declaration), via);
    }
  }

  for (const exported of exports) {
    const target = resolveAlias(checker, exported);
    pending.push({ symbol: target, via: exported.name });
  }
  while (pending.length > 0) {
    const { symbol, via } = pending.pop()!;
    walkSymbol(symbol, via);
  }

  return {
    entry,
    names: exports.map((symbol) => symbol.name).sort(),
    typeNames: typeNames.sort((left, right) => left.name.localeCompare(right.name)),
    exportedSymbols,
    referenced: [...referenced.values()].sort((left, right) => left.name.localeCompare(right.name)),
  };
}
