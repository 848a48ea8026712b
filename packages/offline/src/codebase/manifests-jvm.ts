/**
 * The JVM's build files: Maven's pom.xml (properties and the Spring Boot parent resolved) and
 * Gradle's build.gradle(.kts). Kotlin is told from Java by its plugin or standard library.
 */
import { dep, type Reader } from './manifest-read.ts';

/** The text of the first `<tag>` in an XML fragment. */
const xmlText = (xml: string, tag: string) =>
  new RegExp(`<${tag}>\\s*([^<]*?)\\s*</${tag}>`).exec(xml)?.[1];

/** Maven's pom.xml. */
export const pom: Reader = (path, content) => {
  // A regex reader: a pom's dependencies are flat, well-formed blocks, and a full XML parser
  // would add a dependency to read three tags. Comments are removed first so that a
  // commented-out dependency is not read.
  const xml = content.replace(/<!--[\s\S]*?-->/g, '');
  const properties = /<properties>([\s\S]*?)<\/properties>/.exec(xml)?.[1] ?? '';
  const property = (name: string) => xmlText(properties, name.replace(/\./g, '\\.'));
  const resolve = (value: string | undefined) =>
    value?.replace(/\$\{([^}]+)\}/g, (whole, name: string) => property(name) ?? whole);
  const parent = /<parent>([\s\S]*?)<\/parent>/.exec(xml)?.[1] ?? '';
  const dependencies = [...xml.matchAll(/<dependency>([\s\S]*?)<\/dependency>/g)].flatMap((m) => {
    const group = xmlText(m[1]!, 'groupId');
    const artifact = xmlText(m[1]!, 'artifactId');
    if (!group || !artifact) return [];
    const dev = xmlText(m[1]!, 'scope') === 'test';
    return [dep('maven', `${group}:${artifact}`, resolve(xmlText(m[1]!, 'version')), dev)];
  });
  const boot =
    xmlText(parent, 'artifactId') === 'spring-boot-starter-parent'
      ? xmlText(parent, 'version')
      : undefined;
  if (boot)
    for (const d of dependencies)
      if (d.name.startsWith('org.springframework.boot:') && !d.version) d.version = boot;
  const java =
    property('java.version') ??
    property('maven.compiler.release') ??
    property('maven.compiler.source');
  const kotlin = dependencies.some((d) => d.name.startsWith('org.jetbrains.kotlin:'));
  return {
    path,
    ecosystem: 'maven',
    dependencies,
    language: kotlin
      ? { name: 'Kotlin' }
      : java
        ? { name: 'Java', version: java }
        : { name: 'Java' },
    test: 'mvn test',
    entries: [],
  };
};

/** Gradle's build.gradle or build.gradle.kts. */
export const gradle: Reader = (path, content) => {
  const dependencies = [
    ...content.matchAll(
      /\b(implementation|api|compileOnly|runtimeOnly|testImplementation|testRuntimeOnly)\s*\(?\s*['"]([^:'"\s]+):([^:'"\s]+)(?::([^'"\s]+))?['"]/g,
    ),
  ].map((m) => dep('maven', `${m[2]}:${m[3]}`, m[4], m[1]!.startsWith('test')));
  const kotlin = path.endsWith('.kts') || /kotlin\(|org\.jetbrains\.kotlin/.test(content);
  return {
    path,
    ecosystem: 'maven',
    dependencies,
    language: { name: kotlin ? 'Kotlin' : 'Java' },
    test: 'gradle test',
    entries: [],
  };
};
