import { describe, expect, it } from 'vitest';
import { memberOfDeclarationHeading, memberOfDoxygenName, memberOfErlangId, memberOfId, subjectOfDoxygenTitle, subjectOfHeading, subjectOfModuleBody } from './member-names.js';

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
    // qdoc: the name first, the kind after.
    ['QString Class', 'QString'],
    ['QtConcurrent Namespace', 'QtConcurrent'],
  ])('%j -> %s', (heading, subject) => {
    expect(subjectOfHeading(heading)).toBe(subject);
  });

  it('is no type for a heading that goes on, or names none', () => {
    for (const heading of ['Classes and modules', 'class String and Symbol', 'Ruby 3.1 Documentation', 'Module index', 'class', 'os.path — Common pathname manipulations', 'The Window Class', 'QHash::const_iterator Class', 'Container Classes']) {
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

describe("Doxygen's marks: the title's name, and a member's qualified name", () => {
  it.each([
    ['std::vector< _Tp, _Alloc > Class Template Reference', 'std::vector'],
    ['std::pair< _T1, _T2 > Struct Template Reference', 'std::pair'],
    ['std::chrono Namespace Reference', 'std::chrono'],
    ['std Namespace Reference', 'std'],
    ['std::basic_string< _CharT, _Traits, _Alloc >::_Alloc_hider Struct Reference', 'std::basic_string::_Alloc_hider'],
    ['std::mutex Class Reference', 'std::mutex'],
  ])('title %j -> %s', (title, subject) => {
    expect(subjectOfDoxygenTitle(title)).toBe(subject);
  });

  it('is no subject for other titles', () => {
    for (const title of ['Sorting', 'algorithm File Reference', 'Class List', 'std::vector< _Tp, _Alloc > Member List']) expect(subjectOfDoxygenTitle(title)).toBeUndefined();
  });

  it.each([
    ['constexpr void std::vector< _Tp, _Alloc >::push_back ', 'std::vector::push_back'],
    ['constexpr void std::sort ', 'std::sort'],
    ['constexpr void vector::_M_fill_assign ', 'vector::_M_fill_assign'],
    ['typedef FILE std::__c_file', 'std::__c_file'],
    ['using std::__byte_op_t = typedef typename __byte_operand<_IntegerType>::__type', 'std::__byte_op_t'],
    ['std::unordered_map< _Key, _Tp, _Hash, _Pred, _Alloc >::unordered_map ', 'std::unordered_map::unordered_map'],
  ])('member %j -> %s', (text, name) => {
    expect(memberOfDoxygenName(text)).toBe(name);
  });

  it('is no member for a bare name, an operator or a destructor', () => {
    for (const text of ['void push_back ', 'bool std::operator< ', 'bool std::operator<=> ', 'std::vector< _Tp >::~vector ', 'int ']) expect(memberOfDoxygenName(text)).toBeUndefined();
  });
});

describe("erl_docgen's marks: the module under its Module heading, a function's NAME-ARITY id", () => {
  it('reads the module body as an atom, and nothing else', () => {
    expect(subjectOfModuleBody('ets')).toBe('ets');
    expect(subjectOfModuleBody(' gen_server\n')).toBe('gen_server');
    expect(subjectOfModuleBody('wxFrame')).toBe('wxFrame');
    for (const text of ['Ets', 'List processing functions.', 'ets lists', '', 'Module:init']) expect(subjectOfModuleBody(text)).toBeUndefined();
  });

  it.each([
    ['lookup-2', 'lookup'],
    ['read_file-1', 'read_file'],
    ['all-0', 'all'],
    ['type-tid', 'tid'],
    ['type-server_ref', 'server_ref'],
  ])('%s -> %s', (id, member) => {
    expect(memberOfErlangId(id)).toBe(member);
  });

  it("is none for a callback (Module:handle_call-3 is the user's module's), a plain id or another generator's", () => {
    for (const id of ['Module:handle_call-3', 'Module:init-1', 'description', 'ghlink-lookup-2-id2086', 'method.push', 'Lookup-2', 'type-', 'lookup-']) expect(memberOfErlangId(id)).toBeUndefined();
  });
});

describe('the member a C++ declaration heading declares (qdoc)', () => {
  it.each([
    ['QHash::iterator QHash::insert(const Key &key, const T &value)', 'QHash::insert'],
    ['[static] QString QString::number(long n, int base = 10)', 'QString::number'],
    ['bool QObject::connect(const QObject *sender, const char *signal) const', 'QObject::connect'],
  ])('%j -> %s', (heading, member) => {
    expect(memberOfDeclarationHeading(heading)).toBe(member);
  });

  it('is none for a heading without parameters, an unqualified call or an operator', () => {
    for (const heading of ['typedef QHash::ConstIterator', 'insert(key, value)', 'Using qHash() (since 5.0)', 'QString &QString::operator+=(const QString &other)', 'Example: std::sort']) {
      expect(memberOfDeclarationHeading(heading)).toBeUndefined();
    }
  });
});
