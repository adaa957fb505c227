// TSS statements (DESIGN.md §6). Keywords are case-insensitive; names keep their case.
// Every keyword is also accepted as a name, so apps and states may be called e.g. `key` or `time`.
// The lexer never fails: characters it does not know become ERROR_CHAR tokens, so that the parser
// reports them with a position and the tokens it expected instead.
grammar Tss;

options { caseInsensitive = true; }

// A script: statements separated (or terminated) by ';'. Empty statements are allowed.
script : statement? (SEMI statement?)* EOF ;

// Exactly one statement, optionally terminated by ';'.
singleStatement : statement SEMI? EOF ;

// Each statement kind is decided by its first token, and each sub-choice by one more token, so
// that an error is always detected at the token at fault with the full set of alternatives.
statement
  : show
  | describe
  | createTss
  | drop
  ;

show : SHOW (apps=APPS | tss=TSS) ;
describe : DESCRIBE (APP app=identifier | TSS tss=identifier) ;
drop : DROP (APP app=identifier | TSS tss=identifier) ;

createTss
  : CREATE TSS name=identifier AS EXTRACT stateRef (COMMA stateRef)*
    onKey?
    AT at=STRING timeZone?
    forEach?
    untilClause?
    diff=DIFF?
    transform?
  ;

// app.state or app.transform.state
stateRef : app=identifier DOT first=identifier (DOT second=identifier)? ;
onKey : ON KEY key=STRING ;
timeZone : TIME ZONE zone=STRING ;
forEach : FOR EACH count=INTEGER unit ;
// Grammatically independent of FOR EACH so that UNTIL alone gets a precise semantic error.
untilClause : UNTIL until=STRING ;
unit : SECOND | SECONDS | MINUTE | MINUTES | HOUR | HOURS | DAY | DAYS ;
transform : TRANSFORM sql=STRING ;

// The head of the CLI's `QUERY tss [VERSION 't' [TIME ZONE 'z'] | LATEST] <sql>`; the SQL after
// the head is raw text that this grammar does not tokenize meaningfully.
queryHead : QUERY name=identifier (VERSION version=STRING timeZone? | LATEST)? ;

identifier
  : IDENT
  | SHOW | APPS | APP | DESCRIBE | CREATE | TSS | AS | EXTRACT | ON | KEY | AT | TIME | ZONE
  | FOR | EACH | UNTIL | DIFF | TRANSFORM | DROP
  | SECOND | SECONDS | MINUTE | MINUTES | HOUR | HOURS | DAY | DAYS
  | QUERY | VERSION | LATEST
  ;

// Punctuation first: token types order the alternatives listed in error messages.
SEMI : ';' ;
COMMA : ',' ;
DOT : '.' ;

SHOW : 'SHOW' ;
APPS : 'APPS' ;
APP : 'APP' ;
DESCRIBE : 'DESCRIBE' ;
CREATE : 'CREATE' ;
TSS : 'TSS' ;
AS : 'AS' ;
EXTRACT : 'EXTRACT' ;
ON : 'ON' ;
KEY : 'KEY' ;
AT : 'AT' ;
TIME : 'TIME' ;
ZONE : 'ZONE' ;
FOR : 'FOR' ;
EACH : 'EACH' ;
UNTIL : 'UNTIL' ;
DIFF : 'DIFF' ;
TRANSFORM : 'TRANSFORM' ;
DROP : 'DROP' ;
SECOND : 'SECOND' ;
SECONDS : 'SECONDS' ;
MINUTE : 'MINUTE' ;
MINUTES : 'MINUTES' ;
HOUR : 'HOUR' ;
HOURS : 'HOURS' ;
DAY : 'DAY' ;
DAYS : 'DAYS' ;
QUERY : 'QUERY' ;
VERSION : 'VERSION' ;
LATEST : 'LATEST' ;


// Single-quoted, with '' standing for one quote.
STRING : '\'' ( ~'\'' | '\'\'' )* '\'' ;
// Same opening without the closing quote: only wins (longest match) when the literal never ends.
UNTERMINATED_STRING : '\'' ( ~'\'' | '\'\'' )* ;

INTEGER : [0-9]+ ;
IDENT : [A-Z_] [A-Z0-9_]* ;

LINE_COMMENT : '--' ~[\r\n]* -> skip ;
WS : [ \t\r\n\f]+ -> skip ;

ERROR_CHAR : . ;
