import { describe, expect, it } from 'vitest';
import { memberOfId, subjectOfHeading } from './member-names.js';

describe("a type's page: the type its first heading names", () => {
  it.each([
    ['\n  class String\n', 'String'],
    ['module Kernel', 'Kernel'],
    ['class Net::HTTP', 'Net::HTTP'],
    ['Struct std::vec::Vec', 'Vec'],
    ['Trait std::iter::Iterator', 'Iterator'],
    ['Class java.util.HashMap<K,V>', 'HashMap'],
    ['class Thread::Mutex', 'Thread::Mutex'],
    ['Class HashMap<K,V>', 'HashMap'],
    ['Interface List<E>', 'List'],
  ])('%j -> %s', (heading, subject) => {
    expect(subjectOfHeading(heading)).toBe(subject);
  });

  it('is no type for a heading that goes on, or names none', () => {
    for (const heading of ['Classes and modules', 'class String and Symbol', 'Ruby 3.1 Documentation', 'Module index', 'class', 'os.path — Common pathname manipulations']) {
      expect(subjectOfHeading(heading)).toBeUndefined();
    }
  });
});

describe('the member an id marks, as each generator writes it', () => {
  it.each([
    // RDoc Darkfish: instance and class methods, attributes, escaped predicates and bangs.
    ['method-i-split', 'split', '.'],
    ['method-c-spawn', 'spawn', '.'],
    ['method-i-each_slice', 'each_slice', '.'],
    ['method-c-exist-3F', 'exist', '.'],
    ['method-i-sort_by-21', 'sort_by', '.'],
    ['attribute-i-name', 'name', '.'],
    // rustdoc.
    ['method.push', 'push', '::'],
    ['tymethod.next', 'next', '::'],
    ['structfield.len', 'len', '::'],
    ['method.push-1', 'push', '::'],
    // Javadoc, HTML5 ids and Java 8 anchors.
    ['split(java.lang.String)', 'split', '.'],
    ['toString()', 'toString', '.'],
    ['split-java.lang.String-int-', 'split', '.'],
    ['toString--', 'toString', '.'],
  ])('%s -> %s', (id, member, separator) => {
    expect(memberOfId(id)).toEqual({ member, separator });
  });

  it('is none for an operator, a layout id or an implementation', () => {
    for (const id of ['method-i-2B', 'method-i-5B-5D', 'method-i-3D-3D', 'main-content', 'sidebar', 'class-String', 'impl-Clone', 'method-list', 'reexport.VecDeque']) {
      expect(memberOfId(id)).toBeUndefined();
    }
  });
});
