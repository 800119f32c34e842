/**
 * Words too common to say what a sentence is about, per narration language. Centrality counts the
 * words two sentences share; without these lists "the", "der" or "の" would make every sentence
 * look like every other one. Compared in lower case, before stemming.
 */
const LISTS: Record<string, string> = {
  en: `a about above after again against all also am an and any are as at be because been before being below between both but by can
    could did do does doing down during each even ever few for from further had has have having he her here hers herself him himself his how
    i if in into is it its itself just like made make many may me might more most much must my myself new no nor not now of off often on once
    one only or other our ours ourselves out over own per same says said she should since so some such than that the their theirs them
    themselves then there these they this those though through thus to too two under until up upon us very was we were what when where which
    while who whom why will with within without would yet you your yours yourself however therefore also still already year years`,
  de: `aber alle allem allen aller alles als also am an ander andere anderen auch auf aus bei beim bin bis bist da damit dann das dass dein
    dem den denn der des dessen die dies diese diesem diesen dieser dieses doch dort du durch ein eine einem einen einer eines einige er es
    etwa euer für gegen gewesen hab habe haben hat hatte hatten hier hin hinter ich ihm ihn ihnen ihr ihre im in indem ins ist jede jedem
    jeden jeder jedes jener jetzt kann kein keine können könnte machen man manche mehr mein mit muss musste nach nicht nichts noch nun nur ob
    oder ohne schon sehr sein seine seinem seinen seiner sich sie sind so solche soll sollte sondern sonst über um und uns unser unter viel
    vom von vor während war waren was weil welche welchem welchen welcher wenn wer werden wie wieder will wir wird wo wurde wurden zu zum
    zur zwar zwischen jahr jahre jahren heute immer besonders damals später konnte konnten wurde wurden ihn viele vielen deshalb denn je`,
  es: `a al algo algunas algunos ante antes como con contra cual cuando de del desde donde durante e el ella ellas ellos en entre era eran es
    esa esas ese eso esos esta estaba estado estas este esto estos fue fueron ha había han hasta hay la las le les lo los más me mi mientras
    muy nada ni no nos o otra otras otro otros para pero poco por porque que quien se sea ser si sido sin sobre son su sus también tan misma mismo después
    tanto te tiene tienen todo todos tras tu un una uno unos y ya año años cada puede pueden según aunque así`,
  fr: `à ai au aux avec avait avant c ce cela celle celles celui ces cet cette comme d dans de des donc dont du elle elles en encore est et
    été être eu fait il ils j je l la le les leur leurs lui m ma mais me même mes moi mon n ne ni nos notre nous on ont ou où par pas peu
    peut plus pour qu que qui s sa sans se ses si son sont sous sur t ta te tes toi ton tous tout toute toutes très tu un une vos votre vous
    y année années aussi alors entre depuis fut était étaient avoir faire bien sont pendant puis très longtemps parfois toujours désormais beaucoup`,
  pt: `a à ao aos as às até com como da das de dela dele deles depois do dos e é ela elas ele eles em entre era eram essa essas esse esses
    esta estas este estes eu foi foram há isso isto já la lhe lhes lo mais mas me mesmo meu minha muito na nas nem no nos nós o os ou para
    pela pelas pelo pelos por porque quando que quem se sem ser seu seus sua suas só também te tem têm ter um uma umas uns você ano anos
    cada pode podem ainda sobre sido está estão durante quase grande grandes tempo hoje`,
  hi: `और का की के को में से है हैं था थे थी थीं पर भी यह वह ये वे इस उस इन उन एक कि जो तो ही ने लिए साथ तक कर करता करती करते किया
    गया गई गए हो होता होती होते हुआ हुई हुए रहा रही रहे जा जाता जाती जाते कुछ कोई अपने अपना अपनी सकता सकती सकते या लेकिन बहुत अब
    जब तब यहाँ वहाँ क्या कैसे क्यों वर्ष साल दिया दी इसी उसी सबसे लगभग हर आज कई वजह कारण`,
  ja: `の に は を た が で て と し れ さ ある いる も する から な こと として い や れる など なっ ない この ため その あっ よう また もの
    という あり まで られ なる へ か だ これ によって により おり より による ず なり られる において ば なかっ なく しかし について せ だっ
    その後 できる それ う ので なお のみ でき き つ における および いう さらに でも ら たり その他 に関する たち ます ん なら に対して 特に
    せる 及び これら とき では にて ほか ながら うち そして とともに ただし かつて それぞれ または お ほど ものの に対する ほとんど と共に
    といった です とも ところ ここ 年 月 日 人 もっ ませ まし でし 的`,
};

const SETS = new Map<string, ReadonlySet<string>>(
  Object.entries(LISTS).map(([language, words]) => [language, new Set(words.split(/\s+/).filter(Boolean))]),
);

export function stopWordsFor(language: string): ReadonlySet<string> {
  return SETS.get(language.toLowerCase().slice(0, 2)) ?? SETS.get('en')!;
}

/**
 * Words and phrases that open a sentence by tying it to the one before ("However,", "Sin embargo,").
 * Out of their context they only confuse, so a chosen sentence loses them.
 */
export const LEADING_CONNECTIVES: Record<string, readonly string[]> = {
  en: [
    'however',
    'but',
    'and',
    'also',
    'moreover',
    'furthermore',
    'in addition',
    'additionally',
    'meanwhile',
    'still',
    'yet',
    'so',
    'thus',
    'therefore',
    'consequently',
    'nevertheless',
    'nonetheless',
    'instead',
    'indeed',
    'in fact',
    'of course',
    'after all',
    'for example',
    'for instance',
    'similarly',
    'likewise',
    'then',
    'besides',
    'as a result',
    'on the other hand',
    'at the same time',
  ],
  de: [
    'aber',
    'doch',
    'jedoch',
    'und',
    'auch',
    'außerdem',
    'zudem',
    'darüber hinaus',
    'dennoch',
    'trotzdem',
    'allerdings',
    'also',
    'deshalb',
    'daher',
    'folglich',
    'inzwischen',
    'zum beispiel',
    'beispielsweise',
    'übrigens',
    'immerhin',
    'schließlich',
  ],
  es: [
    'sin embargo',
    'pero',
    'y',
    'además',
    'también',
    'asimismo',
    'por otra parte',
    'por otro lado',
    'no obstante',
    'por eso',
    'por lo tanto',
    'así',
    'entonces',
    'mientras tanto',
    'por ejemplo',
    'de hecho',
    'en cambio',
    'incluso',
    'es decir',
  ],
  fr: [
    'cependant',
    'mais',
    'et',
    'aussi',
    'de plus',
    'en outre',
    'par ailleurs',
    'pourtant',
    'toutefois',
    'néanmoins',
    'donc',
    'ainsi',
    'alors',
    'entre-temps',
    'par exemple',
    'en effet',
    'd’ailleurs',
    "d'ailleurs",
    'en revanche',
    'enfin',
  ],
  pt: [
    'no entanto',
    'mas',
    'e',
    'além disso',
    'também',
    'contudo',
    'porém',
    'todavia',
    'entretanto',
    'por isso',
    'portanto',
    'assim',
    'então',
    'por exemplo',
    'de fato',
    'aliás',
    'ainda assim',
    'enquanto isso',
  ],
  hi: ['लेकिन', 'परंतु', 'परन्तु', 'किंतु', 'और', 'इसके अलावा', 'साथ ही', 'फिर भी', 'इसलिए', 'तो', 'हालांकि', 'वहीं', 'उदाहरण के लिए', 'दरअसल'],
  ja: [
    'しかし',
    'しかしながら',
    'だが',
    'でも',
    'そして',
    'また',
    'さらに',
    'それでも',
    'ところが',
    '一方',
    'つまり',
    'なお',
    'ただし',
    'だから',
    'そのため',
    'たとえば',
    '例えば',
    '実は',
  ],
};
