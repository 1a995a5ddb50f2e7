// The mkq policy language.
//
// The grammar is deliberately uniform: a file is a list of statements, and a
// block body is a list of the same statements. Which statement is allowed where
// (an import only at the top of a file, an attribute only inside a block, ...)
// and which block kinds and fields exist is decided by compiler/sema, so that a
// misspelled field or block kind gets a "did you mean" rather than a syntax error.
//
// Newlines carry no meaning; ',' or ';' may separate statements (see stmt).
// Generated with: antlr4 -Dlanguage=Cpp -no-listener -no-visitor -package mkq::grammar
grammar Mkq;

file : COMMA* stmt* EOF ;

// A ',' or ';' may separate statements. A ',' belongs to the statement before
// it, except right after an assert's condition, where it starts the message:
// no statement starts with ',', so the parser decides on one token whether an
// assert has a message.
stmt
    : ( importStmt
      | letStmt
      | templateStmt
      | forStmt
      | ifStmt
      | useStmt
      | attribute
      | block
      | SEP
      ) COMMA*
    | assertStmt
    ;

importStmt   : IMPORT stringLit (AS ident)? ;
letStmt      : LET ident ASSIGN expr ;
templateStmt : TEMPLATE ident LPAREN params? RPAREN body ;
params       : param (COMMA param)* COMMA? ;
param        : ident (ASSIGN expr)? ;
forStmt      : FOR ident (COMMA ident)? IN expr body ;
ifStmt       : IF expr body (ELSE (ifStmt | body))? ;
assertStmt   : ASSERT expr (COMMA expr COMMA*)? ;   // `assert cond, message`: see stmt
useStmt      : USE qualifiedName LPAREN args? RPAREN ;
attribute    : (ident | STRING) ASSIGN expr ;   // "nvidia.com/gpu" = 8: names that are not identifiers are quoted
block        : blockKind stringLit* (IN stringLit)? body ;
body         : LBRACE COMMA* stmt* RBRACE ;

// Declaration kinds are keywords so that editors highlight them, but any
// identifier parses as a block kind: sema reports unknown ones with a suggestion.
blockKind
    : MANAGER | WORKER | FLAVOR | TOPOLOGY | COHORT | CLUSTERQUEUE | LOCALQUEUE
    | NAMESPACE | PRIORITYCLASS | DISPATCH | KUEUE | ACCESS | INTEGRATION | IDENT
    ;

qualifiedName : ident (DOT ident)* ;

args : arg (COMMA arg)* COMMA? ;
arg  : (ident ASSIGN)? expr ;

expr
    : primary                                           # primaryExpr
    | expr DOT ident                                    # fieldExpr
    | expr LBRACK expr RBRACK                           # indexExpr
    | expr LPAREN args? RPAREN                          # callExpr
    | op=(MINUS | NOT) expr                             # unaryExpr
    | expr op=(STAR | SLASH | PERCENT) expr             # binaryExpr
    | expr op=(PLUS | MINUS) expr                       # binaryExpr
    | expr op=(LT | LE | GT | GE) expr                  # binaryExpr
    | expr op=(EQ | NE) expr                            # binaryExpr
    | expr op=IN expr                                   # binaryExpr
    | expr op=AND expr                                  # binaryExpr
    | expr op=OR expr                                   # binaryExpr
    | <assoc=right> expr QUESTION expr COLON expr       # conditionalExpr
    ;

primary
    : NUMBER                                            # numberLit
    | BAD_NUMBER                                        # badNumberLit
    | DURATION                                          # durationLit
    | stringLit                                         # stringExpr
    | TRUE                                              # trueLit
    | FALSE                                             # falseLit
    | NULL_LIT                                          # nullLit
    | ALL                                               # allLit
    | ident                                             # nameRef
    | LPAREN expr RPAREN                                # parenExpr
    | LBRACK (expr (comprehensionTail | (COMMA expr)* COMMA?))? RBRACK   # listLit
    | LBRACE (mapEntry (COMMA mapEntry)* COMMA?)? RBRACE # mapLit
    ;

// `[x * 2 for x in xs if x > 1]`: a list whose first item is followed by a
// `for` clause. Written as a tail of the list so that the parser decides list
// or comprehension on one token instead of looking ahead over the whole item.
comprehensionTail : FOR ident (COMMA ident)? IN expr (IF expr)? ;

mapEntry  : (stringLit | ident) COLON expr ;
stringLit : STRING | UNTERMINATED_STRING ;

// Declaration kinds are soft keywords: they may also name fields and variables.
ident
    : IDENT | MANAGER | WORKER | FLAVOR | TOPOLOGY | COHORT | CLUSTERQUEUE
    | LOCALQUEUE | NAMESPACE | PRIORITYCLASS | DISPATCH | KUEUE | ACCESS | INTEGRATION
    ;

// ---------------------------------------------------------------- lexer

IMPORT    : 'import' ;
AS        : 'as' ;
LET       : 'let' ;
TEMPLATE  : 'template' ;
USE       : 'use' ;
FOR       : 'for' ;
IN        : 'in' ;
IF        : 'if' ;
ELSE      : 'else' ;
ASSERT    : 'assert' ;
TRUE      : 'true' ;
FALSE     : 'false' ;
NULL_LIT  : 'null' ;  // not NULL: the C++ macro would break the generated code
ALL       : 'all' ;

MANAGER       : 'manager' ;
WORKER        : 'worker' ;
FLAVOR        : 'flavor' ;
TOPOLOGY      : 'topology' ;
COHORT        : 'cohort' ;
CLUSTERQUEUE  : 'clusterqueue' ;
LOCALQUEUE    : 'localqueue' ;
NAMESPACE     : 'namespace' ;
PRIORITYCLASS : 'priorityclass' ;
DISPATCH      : 'dispatch' ;
KUEUE         : 'kueue' ;
ACCESS        : 'access' ;
INTEGRATION   : 'integration' ;

LBRACE   : '{' ;
RBRACE   : '}' ;
LBRACK   : '[' ;
RBRACK   : ']' ;
LPAREN   : '(' ;
RPAREN   : ')' ;
COMMA    : ',' ;
SEP      : ';' ;
DOT      : '.' ;
COLON    : ':' ;
QUESTION : '?' ;
EQ       : '==' ;
NE       : '!=' ;
LE       : '<=' ;
GE       : '>=' ;
LT       : '<' ;
GT       : '>' ;
ASSIGN   : '=' ;
PLUS     : '+' ;
MINUS    : '-' ;
STAR     : '*' ;
SLASH    : '/' ;
PERCENT  : '%' ;
AND      : '&&' ;
OR       : '||' ;
NOT      : '!' ;

// A duration: one or more integer/unit pairs, e.g. 30d, 90s, 1h30min, 250ms.
// Minutes are `min`: a bare `m` is the quantity suffix milli.
DURATION : ([0-9]+ ('d' | 'h' | 'min' | 's' | 'ms'))+ ;

// An exact quantity in Kubernetes notation: 9, 1.5, 500m, 36Gi, 2e3.
NUMBER
    : [0-9]+ ('.' [0-9]+)? ([eE] [+-]? [0-9]+)?
      ('Ki' | 'Mi' | 'Gi' | 'Ti' | 'Pi' | 'Ei' | 'n' | 'u' | 'm' | 'k' | 'M' | 'G' | 'T' | 'P' | 'E')?
    ;

// Anything else that starts like a number (36GB, 1.5h, 1m30s) is reported by
// compiler/syntax as an invalid quantity; it is longer than any NUMBER prefix.
BAD_NUMBER : [0-9] [0-9a-zA-Z_.]* ;

IDENT : [a-zA-Z_] [a-zA-Z0-9_]* ;

// "text with ${interpolation} and \" escapes"; the interpolated expressions are
// parsed by compiler/syntax. An interpolation may not contain '}' or '"'.
STRING : '"' (ESCAPE | '${' ~[}"\r\n]* '}' | '$' ~[{"\\\r\n] | ~["\\\r\n$])* '$'? '"' ;
UNTERMINATED_STRING : '"' (ESCAPE | ~["\\\r\n])* '\\'? ;
fragment ESCAPE : '\\' ~[\r\n] ;

LINE_COMMENT  : '//' ~[\r\n]* -> channel(HIDDEN) ;
BLOCK_COMMENT : '/*' .*? '*/' -> channel(HIDDEN) ;
UNTERMINATED_COMMENT : '/*' (~'*' | '*'+ ~[*/])* '*'* EOF -> channel(2) ;
WS : [ \t\r\n\f]+ -> skip ;

// Any other character is reported by compiler/syntax and then ignored.
STRAY : . -> channel(2) ;
