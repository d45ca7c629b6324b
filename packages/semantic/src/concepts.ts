/**
 * A concept lexicon: everyday words grouped under the topics tool catalogs are about, so that a
 * query and a tool that share a topic but no word still meet ("What is Bitcoin at?" and "stocks,
 * cryptocurrencies and more"; "rename my git branch" and "repository"). Hand-written from general
 * English, not mined from any evaluation set; published in the README. Search indexes the concept
 * ids of a document's words in a separate, lightly weighted field, and adds the concept ids of the
 * query's words to the query — lexical matching still dominates.
 * @module
 */
import { stemmer } from 'stemmer';

/** Topic → the words that evoke it (lowercase; matched after stemming, so one form is enough). */
export const CONCEPT_LEXICON: Readonly<Record<string, string>> = Object.freeze({
  // ── money ──────────────────────────────────────────────────────────────────────────────
  finance:
    'finance financial money stock stocks share shares equity market markets invest investing investment ' +
    'investor portfolio trading trader trade dividend bond bonds etf fund funds hedge forex nasdaq nyse dow ' +
    'index ticker earnings valuation ipo broker brokerage wealth asset assets capital bullish bearish ' +
    'analyst revenue profit margin ratio options futures commodity commodities gold silver interest ' +
    'economy economic inflation bank banking loan loans mortgage credit debit savings retirement pension quote quotes price prices growth rate yield cap capitalization hedge volatility chart candle candles bull bear sec filing filings balance sheet cash flow ipo spac s&p apple tesla microsoft amazon nvidia',
  crypto:
    'crypto cryptocurrency cryptocurrencies bitcoin btc ethereum eth blockchain token tokens coin coins nft nfts ' +
    'wallet defi solana dogecoin altcoin mining erc20 smart contract web3 ledger stablecoin binance coinbase satoshi fork forks dao airdrop staking gas polygon cardano ripple xrp litecoin opensea',
  payment:
    'payment payments pay paid invoice invoices billing bill bills checkout refund receipt transaction charge',
  tax: 'tax taxes taxation vat irs deduction deductions income salary payroll',
  currency:
    'currency currencies exchange rate rates convert conversion dollar dollars euro euros yen pound usd eur gbp',
  // ── places and travel ──────────────────────────────────────────────────────────────────
  housing:
    'house houses home homes housing apartment apartments flat condo rent renting rental rentals lease tenant ' +
    'landlord property properties real estate realtor mortgage bedroom neighborhood buy buying purchase studio furnished roommate sublet realty zillow listing listings square feet sqft residence residential villa duplex townhouse',
  travel:
    'travel traveling trip trips vacation holiday holidays tour tourism tourist hotel hotels motel motels hostel ' +
    'resort lodging accommodation accommodations booking book reservation reservations itinerary destination ' +
    'sightseeing attraction attractions cruise airbnb visa passport inn ryokan backpacking journey getaway honeymoon destination sightsee beach island',
  transport:
    'flight flights airline airlines airport plane train trains subway metro bus buses taxi uber transit ' +
    'commute route routes transportation ride drive driving traffic parking car park ferry tram railway station stations bike bicycle scooter shuttle',
  location:
    'map maps location locations place places nearby near address coordinates geocode directions distance ' +
    'city cities country countries region navigation gps latitude longitude street local',
  weather:
    'weather forecast forecasts temperature rain raining snow storm wind humidity climate sunny cloudy ' +
    'umbrella hot cold degrees celsius fahrenheit uv air quality pollution',
  // ── everyday life ──────────────────────────────────────────────────────────────────────
  food:
    'food foods recipe recipes cook cooking meal meals dish dishes cuisine restaurant restaurants dinner lunch ' +
    'breakfast snack ingredient ingredients bake baking menu eat eating vegan vegetarian dessert grocery coffee tea wine beer cocktail bakery pizza sushi burger salad soup spicy taste tasty flavor chef',
  diet:
    'diet diets nutrition nutritional calorie calories protein carb carbs fat weight lose loss fitness workout ' +
    'exercise gym training healthy meal plan keto macro macros bmi slim muscle cardio yoga running steps',
  health:
    'health medical medicine doctor doctors symptom symptoms disease diseases illness patient hospital clinic ' +
    'drug drugs treatment therapy mental covid flu vaccine clinical trial trials diagnosis pain headache fever injury anxiety depression stress sleep therapy therapist nurse pharmacy prescription allergy',
  shopping:
    'shop shopping store stores product products buy buying purchase price prices cheap cheaper deal deals ' +
    'discount discounts coupon coupons sale sales order brand brands retail amazon ebay cart item items electronics laptop laptops phone phones smartphone camera cameras headphones tv appliance appliances furniture decor supplier suppliers wholesale bargain affordable expensive overpriced marketplace',
  fashion: 'fashion clothes clothing outfit outfits wear dress shirt shirts shoes style apparel jacket jeans',
  gift: 'gift gifts present presents birthday anniversary christmas occasion',
  car: 'car cars vehicle vehicles auto automobile dealer dealership sedan suv truck electric ev tesla engine',
  pet: 'pet pets dog dogs cat cats puppy animal animals vet veterinarian breed',
  plant: 'plant plants garden gardening flower flowers succulent succulents seed seeds soil water watering',
  // ── work ───────────────────────────────────────────────────────────────────────────────
  job:
    'job jobs career careers employment employer hire hiring hired recruit recruiter recruiting interview ' +
    'interviews resume resumes cv applicant apply application salary position vacancy talent freelance freelancer linkedin workplace coworker boss manager promotion internship intern occupation profession professional ats',
  company:
    'company companies business businesses startup startups firm corporation enterprise organization ' +
    'industry competitor competitors ceo founder headquarters valuation acquisition merger executive executives board shareholders subsidiary revenue',
  marketing:
    'marketing market campaign campaigns ad ads advert advertising advertisement ppc adwords audience ' +
    'promotion brand branding outreach lead leads conversion influencer engagement ctr impressions funnel newsletter',
  seo: 'seo search engine optimization ranking rankings keyword keywords backlink backlinks serp organic traffic sem meta metadata crawl indexing pagerank domain authority',
  project:
    'project projects task tasks todo to-do deadline milestone kanban sprint ticket tickets team teams',
  // ── knowledge ──────────────────────────────────────────────────────────────────────────
  education:
    'education learn learning course courses class classes lesson lessons tutorial tutor teacher teach ' +
    'student students school university college study studying exam exams homework textbook curriculum math physics chemistry biology quiz flashcard degree semester professor lecture ielts toefl sat gre',
  language:
    'language languages translate translation translator english spanish french german chinese japanese ' +
    'vocabulary grammar pronunciation speak speaking fluent',
  writing:
    'write writing writer essay essays article articles blog blogs copy copywriting content rewrite rephrase ' +
    'paraphrase proofread grammar edit editing draft prose story stories headline headlines title titles caption captions slogan tagline script speech poem poetry letter',
  research:
    'research paper papers academic scholar scholarly journal journals citation citations publication ' +
    'publications study studies thesis arxiv bibliography literature science scientific experiment hypothesis dataset datasets survey peer review pubmed doi',
  law: 'law laws legal lawyer attorney court courts legislation statute regulation regulations contract rights act lawsuit sue judge litigation copyright trademark patent tenant landlord injury liability compliance',
  politics:
    'politics political government election elections vote voting parliament congress senate policy minister president prime mp candidate candidates campaign party democrat republican biden trump',
  history: 'history historical ancient civilization century war empire era',
  space:
    'space nasa astronomy astronaut planet planets mars moon star stars galaxy rocket satellite iss telescope hubble cosmos universe nebula comet asteroid orbit spacecraft',
  news: 'news headline headlines article articles breaking report reports journalism press latest current events update updates trending trend trends happening',
  astrology:
    'astrology horoscope horoscopes zodiac tarot virgo leo aries taurus gemini cancer libra scorpio pisces sign signs birth chart natal sagittarius capricorn aquarius mystic fortune psychic',
  math: 'math mathematics calculate calculation calculator equation arithmetic number numbers sum divide multiply',
  time: 'time timezone timezones clock date dates hour hours minute today tomorrow calendar ahead behind gmt utc pst est daylight',
  // ── media ──────────────────────────────────────────────────────────────────────────────
  music:
    'music song songs playlist playlists album albums artist artists band lyrics chord chords guitar concert singer rap rock pop jazz hiphop melody tune tunes spotify',
  video:
    'video videos youtube movie movies film films tv show shows series stream streaming episode clip trailer trailers documentary drama comedy anime netflix hulu cinema actor actress director',
  podcast: 'podcast podcasts episode episodes listen audio',
  book: 'book books novel novels author authors reading reader library ebook literature fiction nonfiction bestseller bestsellers paperback kindle chapter',
  game: 'game games gaming play player players puzzle puzzles chess quiz trivia board gamer console playstation xbox nintendo rpg fps multiplayer level levels dice card cards',
  sport:
    'sport sports football soccer basketball baseball nba nfl nhl mlb team teams match matches score scores league tennis golf cricket hockey f1 racing olympics athlete athletes tournament championship fixture fixtures standings wimbledon',
  image:
    'image images picture pictures photo photos photograph gif gifs illustration art artwork drawing graphic photography camera wallpaper meme memes sticker portrait painting paint',
  design: 'design designer logo logos visual visuals template templates poster banner infographic font fonts',
  chart: 'chart charts graph graphs diagram diagrams plot plots visualize visualization mind map',
  event:
    'event events ticket tickets concert concerts festival show shows venue conference meetup party wedding',
  // ── software and data ──────────────────────────────────────────────────────────────────
  code:
    'code coding program programming developer software source repository repositories repo repos github ' +
    'gitlab git commit commits branch branches pull merge snippet function bug bugs debug open-source javascript typescript python java rust golang node nodejs react api apis sdk library libraries framework stackoverflow crud algorithm',
  devops:
    'deploy deployment server servers cloud aws azure gcp kubernetes k8s docker container containers cluster ' +
    'infrastructure hosting host vm instance instances ssh pipeline pipelines ci terminal shell command commands linux unix bash log logs monitoring uptime',
  database:
    'database databases sql query queries table tables row rows column columns schema postgres mysql record',
  file: 'file files folder folders directory directories document documents path disk drive storage upload download',
  pdf: 'pdf pdfs document documents page pages scan ocr',
  web: 'web website websites webpage webpages page url urls link links browser internet online site sites domain domain domains hosting wordpress blog html http https landing',
  search: 'search searching find finding lookup look discover query engine google bing',
  email: 'email emails mail inbox gmail message messages send reply newsletter outlook smtp',
  chat: 'chat chats message messages conversation conversations slack discord channel channels dm thread',
  social:
    'social twitter tweet tweets instagram facebook linkedin tiktok reddit post posts follower followers hashtag',
  calendar:
    'calendar calendars meeting meetings schedule scheduling appointment appointments event events reminder',
  note: 'note notes notebook notebooks memo journal reminder reminders list lists todo',
  memory:
    'memory memorize remember flashcard flashcards recall review spaced repetition store stored personal preferences',
  security:
    'security secure breach breaches hack hacked hacker password passwords vulnerability scan credential malware virus phishing exposed leak leaked privacy encryption firewall',
  summary: 'summary summarize summarise summaries tldr digest overview',
  charity:
    'charity charities nonprofit nonprofits donation donations donate volunteer foundation ngo mission cause fundraising',
  psychology:
    'psychology personality mbti introvert extrovert emotion emotions feeling feelings mood motivation ' +
    'motivational inspiration inspire confidence mindfulness meditation habit habits self-help',
  family: 'family parent parents parenting kid kids child children baby toddler',
  religion: 'religion religious faith prayer bible quran hadith islam christian church god spiritual',
  energy: 'energy solar renewable electricity power fuel gas petrol gasoline diesel oil',
  environment:
    'environment environmental climate carbon emissions sustainability recycling earthquake disaster',
  meeting: 'meeting meetings call calls transcript transcripts zoom recording minutes',
  ai: 'ai assistant chatbot gpt llm model models prompt prompts',
});

const _BY_STEM: ReadonlyMap<string, readonly string[]> = (() => {
  const map = new Map<string, string[]>();
  for (const [concept, words] of Object.entries(CONCEPT_LEXICON)) {
    for (const word of words.split(/\s+/)) {
      if (word.length === 0) continue;
      const stem = stemmer(word);
      const list = map.get(stem) ?? [];
      if (!list.includes(concept)) list.push(concept);
      map.set(stem, list);
    }
  }
  return map;
})();

/** Prefix that marks a concept term, so it never collides with a word. */
export const CONCEPT_PREFIX = '~';

/**
 * Concept weights evoked by stemmed search terms: a word evoking k concepts adds 1/k to each
 * (`buy` is half `~shopping`, half `~housing`; `bitcoin` is all `~crypto`), times `wordWeight` of
 * the word (default 1), summed over words. Keys are in first-seen order.
 * @example
 * conceptWeights(['bitcoin', 'buy']); // Map { '~crypto' => 1, '~housing' => 0.5, '~shopping' => 0.5 }
 */
export function conceptWeights(
  stems: readonly string[],
  wordWeight: (stem: string) => number = () => 1,
): Map<string, number> {
  const out = new Map<string, number>();
  for (const stem of stems) {
    const concepts = _BY_STEM.get(stem);
    if (concepts === undefined) continue;
    const w = wordWeight(stem) / concepts.length;
    for (const concept of concepts) {
      const term = `${CONCEPT_PREFIX}${concept}`;
      out.set(term, (out.get(term) ?? 0) + w);
    }
  }
  return out;
}
